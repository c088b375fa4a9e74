import { packageConfig } from "../../tsup.base.ts";

export default packageConfig();
