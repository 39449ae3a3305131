import baseConfig from '../../eslint.config.mjs';

export default [...baseConfig, { ignores: ['src/api/schema.d.ts'] }];
