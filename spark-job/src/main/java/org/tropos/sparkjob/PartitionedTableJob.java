package org.tropos.sparkjob;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;

/**
 * Writes a table partitioned by day as Parquet to the path given (a tropos:// URI) through Spark's default
 * committer (Hadoop's FileOutputCommitter), reads it back and checks every row: fails unless all are there.
 */
public final class PartitionedTableJob {
  private static final long ROWS = 100_000;
  private static final int DAYS = 7;

  private PartitionedTableJob() {
  }

  public static void main(String[] args) {
    String table = args[0];
    SparkSession spark = SparkSession.builder().appName("tropos-partitioned-table").master("local[2]")
        .config("spark.ui.enabled", "false").config("spark.sql.shuffle.partitions", "4").getOrCreate();
    try {
      Dataset<Row> rows = spark.range(0, ROWS).selectExpr("id", "id % " + DAYS + " as day", "id * 2 as value");
      rows.repartition(4).write().mode(SaveMode.Overwrite).partitionBy("day").parquet(table);
      Dataset<Row> back = spark.read().parquet(table);
      long count = back.count();
      long sum = back.selectExpr("sum(value)").first().getLong(0);
      long days = back.select("day").distinct().count();
      long expectedSum = ROWS * (ROWS - 1);
      System.out.println("rows " + count + ", days " + days + ", sum " + sum);
      if (count != ROWS || days != DAYS || sum != expectedSum) {
        throw new IllegalStateException("expected " + ROWS + " rows over " + DAYS + " days summing to "
            + expectedSum);
      }
    } finally {
      spark.stop();
    }
  }
}
