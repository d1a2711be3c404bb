// npm run bench:pure: the in-process rows only (no local server), printed as the bench table.
import { evaluatorRows } from "./evaluator";
import { guardRows } from "./guard";
import { printTable } from "./harness";

printTable([...evaluatorRows(), ...(await guardRows())]);
