/**
 * The architecture check (issue #19 point 4, DESIGN §2 "rooms with one job"): which folder may import
 * which. Run by tests/unit/architecture.test.ts in npm test, or by hand:
 *   npx depcruise generator model rules server runtime --config .dependency-cruiser.cjs
 * TypeScript 7 has no JS compiler API, so the TypeScript sources are read with swc.
 */

// dependency-cruiser's swc parser reads every file as TypeScript without JSX (its parse options leave
// `tsx` off: "TODO: {tj}sx ?"), so a .tsx file fails to parse. Its swc is this process's @swc/core:
// .tsx files are read with `tsx: true`, everything else as before.
const swc = require('@swc/core')
if (!swc.parseFileSync.tsxAware) {
  const parseFileSync = swc.parseFileSync
  const tsxAware = (file, options) =>
    parseFileSync(file, String(file).endsWith('.tsx') ? { ...options, tsx: true } : options)
  tsxAware.tsxAware = true
  swc.parseFileSync = tsxAware
}

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'engine-not-to-domain',
      comment:
        'The generic engine imports no domain module: domain code registers its effects, derivations and rules with the engine at start (server/engine/registry.ts).',
      severity: 'error',
      from: { path: '^server/engine/' },
      to: { path: '^server/domain/' },
    },
    {
      name: 'runtime-not-to-server',
      comment: 'The portal never imports the server: both import generated/ and the pure rooms (model/, rules/).',
      severity: 'error',
      from: { path: '^runtime/' },
      to: { path: '^server/' },
    },
    {
      name: 'server-not-to-runtime',
      comment: 'The server never imports the portal: both import generated/ and the pure rooms (model/, rules/).',
      severity: 'error',
      from: { path: '^server/' },
      to: { path: '^runtime/' },
    },
    {
      name: 'pure-rooms-stay-pure',
      comment: 'model/ and rules/ are shared by generator, server and portal, and import none of them.',
      severity: 'error',
      from: { path: '^(model|rules)/' },
      to: { path: '^(generator|server|runtime)/' },
    },
    {
      name: 'no-generator-at-run-time',
      comment: 'generator/ is a build tool: nothing the server or the portal runs loads it.',
      severity: 'error',
      from: { path: '^(server|runtime)/' },
      to: { path: '^generator/' },
    },
    {
      name: 'no-circular',
      comment:
        "No import cycles: each module can be understood (and loaded) after what it imports. A cycle closed only by an `import type` is not one: the import is erased, nothing is loaded (a lazy screen naming the registry's ScreenProps).",
      severity: 'error',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['dynamic-import'] } },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)node_modules/|\\.test\\.tsx?$' },
    parser: 'swc',
    tsPreCompilationDeps: true,
    combinedDependencies: false,
    enhancedResolveOptions: {
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
      conditionNames: ['import', 'require', 'node', 'default'],
    },
  },
}
