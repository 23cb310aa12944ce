import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig, type LoadConfigOptions } from '../../src/config/load-config';

/** Writes files (JSON values, or raw text for `.js` and broken files) into a fresh temp config folder. */
export function writeConfigDir(files: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'folio-config-'));
  mkdirSync(dir, { recursive: true });
  for (const [name, content] of Object.entries(files)) {
    writeFileSync(join(dir, name), typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  }
  return dir;
}

export function loadFrom(files: Record<string, unknown>, options: Omit<LoadConfigOptions, 'configDir'> = {}) {
  return loadConfig({ env: {}, ...options, configDir: writeConfigDir(files) });
}

/** The ConfigError message lines (without the header), with the temp folder shown as `config/`. */
export function configErrorLines(files: Record<string, unknown>, options: Omit<LoadConfigOptions, 'configDir'> = {}): string[] {
  const configDir = writeConfigDir(files);
  try {
    loadConfig({ env: {}, ...options, configDir });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    const [header, ...lines] = error.message.split('\n');
    expect(header).toMatch(/^Invalid configuration \(\d+ problems?\):$/);
    return lines.map((line) => line.split(configDir).join('config'));
  }
  throw new Error('expected loadConfig to throw a ConfigError');
}
