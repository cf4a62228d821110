package org.tropos.common.ec;

/**
 * Where the bytes of an erasure-coded block group lie. The group's bytes are cut into cells dealt round-robin to
 * the data units: stripe {@code s} holds bytes {@code [s * stripeSize, (s + 1) * stripeSize)}, its cell on data
 * unit {@code u} the {@code u}-th cellSize of them. Only the last stripe may be partial: its cells fill data units
 * from the first, the last filled one possibly short, later ones empty. A parity cell is as long as the stripe's
 * first (longest) data cell; the coder counts shorter cells as zero-padded. Each unit stores its cells back to
 * back, so a unit's block is as long as the sum of its cells.
 */
public final class StripeLayout {
  private final int data;
  private final int cellSize;
  private final long stripeSize;

  StripeLayout(EcReplication config) {
    this.data = config.data();
    this.cellSize = config.cellSize();
    this.stripeSize = config.stripeSize();
  }

  /** Stripes a group of {@code groupLength} bytes spans, the last possibly partial. */
  public long stripes(long groupLength) {
    return (groupLength + stripeSize - 1) / stripeSize;
  }

  /** Bytes of stripe {@code stripe} that unit {@code unit} (0-based; parity after data) holds. */
  public int cellLength(long stripe, int unit, long groupLength) {
    long inStripe = groupLength - stripe * stripeSize;
    if (inStripe <= 0) {
      return 0;
    }
    long before = unit < data ? (long) unit * cellSize : 0;
    return (int) Math.max(0, Math.min(cellSize, inStripe - before));
  }

  /** Bytes unit {@code unit} holds of a group of {@code groupLength} bytes: the length of its block. */
  public long unitLength(int unit, long groupLength) {
    long wholeStripes = groupLength / stripeSize;
    return wholeStripes * cellSize + cellLength(wholeStripes, unit, groupLength);
  }

  /** Where the group's byte at {@code offset} lies. */
  public CellPosition locate(long offset) {
    long stripe = offset / stripeSize;
    long inStripe = offset % stripeSize;
    int unit = (int) (inStripe / cellSize);
    int inCell = (int) (inStripe % cellSize);
    return new CellPosition(stripe, unit, stripe * cellSize + inCell, inCell);
  }

  /**
   * A byte of a group: in stripe {@code stripe}, on data unit {@code unit}, at {@code unitOffset} in that unit's
   * block and {@code inCell} in its cell.
   */
  public record CellPosition(long stripe, int unit, long unitOffset, int inCell) {
  }
}
