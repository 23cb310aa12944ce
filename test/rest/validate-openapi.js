'use strict';
/**
 * Validates the OpenAPI document read from standard input and prints the validator's result as
 * JSON. Run as a child process: the validator is an ES module, which jest's CommonJS runtime
 * cannot load (Node >= 20.19 requires it natively).
 */
const { Validator } = require('@seriousme/openapi-schema-validator');

let input = '';
process.stdin.on('data', (chunk) => (input += chunk));
process.stdin.on('end', async () => {
  const result = await new Validator().validate(JSON.parse(input));
  process.stdout.write(JSON.stringify({ valid: result.valid, errors: result.errors }));
});
