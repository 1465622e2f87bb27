import pkg from '../package.json' with { type: 'json' };
export const VERSION: string = pkg.version;
/** The TensorFlow.js this build pins (package.json): the offline report names it beside the backend. */
export const TFJS_VERSION: string = pkg.dependencies['@tensorflow/tfjs-core'];
