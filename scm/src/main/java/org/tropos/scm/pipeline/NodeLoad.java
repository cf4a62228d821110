package org.tropos.scm.pipeline;

/** Live pipelines a datanode is in, and how many it leads. */
public record NodeLoad(int pipelines, int leaders) {
  NodeLoad plus(NodeLoad other) {
    return new NodeLoad(pipelines + other.pipelines, leaders + other.leaders);
  }
}
