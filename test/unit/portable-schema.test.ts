import { test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { portableSchema } from '../../main/mcp/portable-schema.js';
import { TOOLS } from '../../main/mcp/tool-catalog.js';

test('type arrays become anyOf and empty schemas become true, meaning unchanged', () => {
  assert.deepEqual(portableSchema({ type: ['string', 'null'], description: 'd' }), { anyOf: [{ type: 'string' }, { type: 'null' }], description: 'd' });
  assert.deepEqual(portableSchema({ type: 'object', additionalProperties: {} }), { type: 'object', additionalProperties: true });
  assert.deepEqual(portableSchema({ $schema: 'x', type: 'object' }), { type: 'object' });
});

test('no tool schema keeps a construct some hosts reject', () => {
  for (const tool of TOOLS) {
    for (const schema of [tool.input, tool.output]) {
      const text = JSON.stringify(portableSchema(z.toJSONSchema(schema, { io: 'output' }) as Parameters<typeof portableSchema>[0]));
      assert.ok(!/"type":\[/.test(text), `${tool.name}: type array`);
      assert.ok(!text.includes('"additionalProperties":{}'), `${tool.name}: empty additionalProperties`);
      assert.ok(!text.includes('$schema'));
    }
  }
});
