export { pactsDir, usersPactsDir } from "./pacts-dir.js";
