// Jest's module runtime with one change: each module is compiled as a `vm.Script` in the usual
// CommonJS wrapper instead of with `vm.compileFunction`.
//
// Every spec file gets a fresh module registry, so a Jest process loads the service (NestJS,
// TypeORM, Fastify and the app, some 2,000 modules) once per spec file, and V8 compiled every one of
// them again each time: `compileFunction` never uses V8's compilation cache. A `vm.Script` with the
// same source and file name is found in that cache, in any context of the process, with the
// functions it has already compiled. The modules still run anew in each spec file's own context;
// only V8's compiled code is shared. Measured on the e2e
// specs: compiling was a third of a spec file's CPU before the service ever started.
//
// Anything this does not handle (a syntax error, a core module) goes to Jest's own compile, so
// errors read as Jest's do.
const { Script } = require('node:vm');
const Runtime = require('jest-runtime').default;

class CachingRuntime extends Runtime {
  constructor(...args) {
    super(...args);
    const executor = this.executor;
    const jestCompile = executor.compile.bind(executor);
    const wrapperStart = `(function (${executor.injectedModuleParameters.join(', ')}) {`;
    executor.compile = (scriptSource, filename) => {
      const context = executor.environment.getVmContext();
      if (context == null || executor.resolution.isCoreModule(filename)) return jestCompile(scriptSource, filename);
      let script;
      try {
        script = new Script(`${wrapperStart}${scriptSource}\n})`, { filename });
      } catch {
        return jestCompile(scriptSource, filename);
      }
      return script.runInContext(context);
    };
  }
}

module.exports = CachingRuntime;
