// The pages feature's public entry: the trace and overview pages, POST /v1/views, and what the feature needs.

import { featureApp } from "../../http/openapi";
import { defineFeature } from "../feature";
import type { PagesNeeds } from "./needs";
import { pageRoutes } from "./routes/pages";
import { viewsApi } from "./routes/views-api";

export type { PagesNeeds } from "./needs";

/** POST /v1/views (in the OpenAPI document) and the two HTML pages (not API routes, so not in it). */
export const pagesRoutes = featureApp<PagesNeeds>().route("/", viewsApi).route("/", pageRoutes);

export const pagesFeature = defineFeature({ name: "pages", routes: [pagesRoutes] });
