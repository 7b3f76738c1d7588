/**
 * PNG charts of benchmark results (XChart), with the paper's figures beside ours. Depends on the traversal
 * benchmark's result types and XChart.
 */
package io.pragh.bench.charts;
