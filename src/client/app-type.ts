// The API's route types for `hono/client`, derived from the one feature list (type-only, so nothing worker-side runs in Node).
import type { Hono } from "hono";
import type { hc } from "hono/client";
import type { RouteGroups } from "../features";

type ClientOf<T extends Hono<any, any, any>> = ReturnType<typeof hc<T>>;
type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/** Every feature is mounted at "/", so one client over all of them is the intersection of their route groups' clients. */
export type Api = UnionToIntersection<
  RouteGroups extends infer G ? (G extends RouteGroups ? ClientOf<G> : never) : never
>;
