// Port: reaching one run's Durable Object by run id. `Ops` is the object's RPC surface (the runs feature's
// RunOperations), so the port itself knows no feature types.

export interface RunGateway<Ops> {
  /** the run's object, addressed by its run id; each operation is one RPC method */
  get(runId: string): Ops;
  /** the team's control run, which holds its policy_deploy gates */
  controlRunId(teamId: string): Promise<string>;
}
