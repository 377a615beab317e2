export {
  infoVersion,
  specVersionSources,
  syncSpecVersions,
  type VersionSync,
  withInfoVersion,
} from "./spec-versions.js";
