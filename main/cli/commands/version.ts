import { readFileSync } from 'node:fs';
import type { CliCommand } from '../command';

const command: CliCommand = {
  async run() {
    const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'));
    console.log(`${pkg.productName} ${pkg.version} (node ${process.version})`);
    return 0;
  },
};
export default command;
