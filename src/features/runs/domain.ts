// The runs feature's pure entry: the types of its D1 run index and run record that other features read.
export type * from "./store/run-index-port";
export type * from "./store/run-record-port";
