// The sweeps feature's pure entry: the rollback math (lookback windows, metrics from decision counts) others read.
export { metricValue, parseWindow } from "./rollback";
