import { tempDir } from '@shared/testing';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageVersion } from './package-version';
import { isIanaTimeZone } from './time-zone';

describe('packageVersion', () => {
  it('reads the nearest package.json with a real version, skipping placeholders and broken files', () => {
    const dir = tempDir('package-version-');
    try {
      const nested = join(dir.path, 'app', 'src', 'lib');
      mkdirSync(nested, { recursive: true });
      writeFileSync(join(dir.path, 'package.json'), JSON.stringify({ version: '2.3.4' }));
      writeFileSync(join(dir.path, 'app', 'package.json'), JSON.stringify({ version: '0.0.1' }));
      writeFileSync(join(dir.path, 'app', 'src', 'package.json'), '{ broken');
      expect(packageVersion(nested)).toBe('2.3.4');
      writeFileSync(join(nested, 'package.json'), JSON.stringify({ version: '1.0.0-rc.1' }));
      expect(packageVersion(nested)).toBe('1.0.0-rc.1');
    } finally {
      dir.remove();
    }
  });

  it('finds the workspace version from this source folder', () => {
    expect(packageVersion()).toMatch(/^\d+\.\d+\.\d+/);
  });
});

describe('isIanaTimeZone', () => {
  it('accepts IANA names and refuses anything else', () => {
    for (const zone of ['UTC', 'Europe/Berlin', 'Asia/Shanghai', 'America/Argentina/Buenos_Aires']) expect(isIanaTimeZone(zone)).toBe(true);
    for (const zone of ['', 'Mars/Olympus', 'Europe/Berlin ', 'x'.repeat(65)]) expect(isIanaTimeZone(zone)).toBe(false);
  });
});
