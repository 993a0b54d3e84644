import { buildIfNeeded } from "./build-if-needed.mjs";

buildIfNeeded();
