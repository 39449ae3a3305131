import { CONFIG_IMPORT_BODY_LIMITS, DEFAULT_BODY_LIMITS, jsonShapeViolation } from './request-limits';

describe('jsonShapeViolation', () => {
  const limits = { maxDepth: 3, maxArrayLength: 4, maxValues: 20 };

  it('accepts documents within every bound, whatever their strings hold', () => {
    expect(jsonShapeViolation('{"a":[1,2,3,4],"b":{"c":"[[[[,,,,{{{{"}}', limits)).toBeUndefined();
    expect(jsonShapeViolation('"escaped \\" [[[[ quote"', limits)).toBeUndefined();
    expect(jsonShapeViolation('[]', limits)).toBeUndefined();
  });

  it('refuses nesting deeper than maxDepth', () => {
    expect(jsonShapeViolation('[[[1]]]', limits)).toBeUndefined();
    expect(jsonShapeViolation('[[[[1]]]]', limits)).toBe('Request body nests deeper than 3 levels');
    expect(jsonShapeViolation('{"a":{"b":{"c":{}}}}', limits)).toMatch(/nests deeper/);
  });

  it('refuses a list or object longer than maxArrayLength', () => {
    expect(jsonShapeViolation('[1,2,3,4,5]', limits)).toBe('Request body has a list or object with more than 4 entries');
    expect(jsonShapeViolation('{"a":1,"b":2,"c":3,"d":4,"e":5}', limits)).toMatch(/more than 4 entries/);
    expect(jsonShapeViolation('[[1,2,3,4],[1,2,3,4]]', limits)).toBeUndefined();
  });

  it('refuses more values in total than maxValues', () => {
    expect(jsonShapeViolation('[[1,2,3],[4,5,6],[7,8,9],[true,null,false]]', { ...limits, maxValues: 12 })).toBe('Request body holds more than 12 values');
    expect(jsonShapeViolation('[[1,2],[4,5]]', { ...limits, maxValues: 7 })).toBeUndefined();
    expect(jsonShapeViolation('[-12.5e3, 1]', limits)).toBeUndefined();
  });

  it('needs a few milliseconds for the hostile bodies of the security review', () => {
    const emptyObjects = `[${'{},'.repeat(3_000_000)}{}]`;
    const deep = '['.repeat(1_000_000);
    // CPU time, not wall time: a starved machine stretches the one, not the other.
    const started = process.cpuUsage();
    expect(jsonShapeViolation(emptyObjects, DEFAULT_BODY_LIMITS)).toMatch(/more than 1000 entries/);
    expect(jsonShapeViolation(deep, DEFAULT_BODY_LIMITS)).toMatch(/nests deeper than 32/);
    const longString = JSON.stringify({ config_json: 'x'.repeat(4 * 1024 * 1024 - 32) });
    expect(jsonShapeViolation(longString, CONFIG_IMPORT_BODY_LIMITS)).toBeUndefined();
    const cpu = process.cpuUsage(started);
    expect((cpu.user + cpu.system) / 1000).toBeLessThan(1_000);
  });
});
