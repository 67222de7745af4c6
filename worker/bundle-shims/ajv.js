// Bundle shim for `ajv` (see README.md): constructible, so a library may hold a default instance,
// but compiling a schema fails loudly — pass CfWorkerJsonSchemaValidator instead.
const refuse = () => {
  throw new Error("ajv is not in this worker bundle (worker/bundle-shims): use CfWorkerJsonSchemaValidator");
};
export class Ajv {
  compile() {
    return refuse();
  }
  getSchema() {
    return undefined;
  }
  addSchema() {
    return this;
  }
  addFormat() {
    return this;
  }
  addKeyword() {
    return this;
  }
  validate() {
    return refuse();
  }
}
export default Ajv;
