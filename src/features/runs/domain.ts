// The runs feature's pure entry: types and values other features read of it.
export type * from "./store/run-index-port";
export type * from "./store/run-record-port";
