// The clock port: the one way code outside the composition root learns the time (tests pass their own).
export type Clock = { now(): number };
