import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderAnswerSchemas } from './answer-schemas.render';
import { DEVICE_ROUTES } from './api/deviceapi';
import { ENDPOINTS } from './endpoints';

describe('the answers’ JSON Schemas', () => {
  const text = fs.readFileSync(path.join(import.meta.dirname, 'answer-schemas.json'), 'utf8');

  it('answer-schemas.json is generated from the current types (run `npm run gen:endpoints`)', () => {
    // Compared as data: the formatter may lay the file out its own way.
    expect(JSON.parse(text)).toEqual(renderAnswerSchemas());
  }, 120_000);

  it('every endpoint and device route that answers JSON has a schema that says something', () => {
    const { answers, $defs } = JSON.parse(text) as { answers: Record<string, Record<string, unknown>>; $defs: Record<string, unknown> };
    const names = [...ENDPOINTS.filter((e) => !e.raw).map((e) => e.name), ...Object.keys(DEVICE_ROUTES).map((r) => `deviceapi.${r}`)];
    for (const name of names) {
      const schema = answers[name];
      expect(schema, name).toBeTruthy();
      expect(Object.keys(schema!).length, `${name} has an empty schema`).toBeGreaterThan(0);
    }
    // Every reference resolves.
    for (const ref of text.matchAll(/"\$ref": "#\/\$defs\/([^"]+)"/g)) expect($defs[ref[1]!], ref[1]).toBeTruthy();
  });
});
