/**
 * PNG charts of benchmark results (XChart), with the paper's figures beside ours. Depends on the traversal
 * benchmark's result types and XChart.
 */
@MayDependOn({"io.pragh.bench.traversal", "org.knowm.xchart.."})
package io.pragh.bench.charts;

import io.pragh.MayDependOn;
