import { createFifoGate } from '../../src/common/fifo-gate';

/** A deferred piece of work: started when the gate runs it, ended when the test says. */
const held = () => {
  let end!: (value: string) => void;
  let fail!: (error: Error) => void;
  const done = new Promise<string>((resolve, reject) => {
    end = resolve;
    fail = reject;
  });
  return { done, end, fail };
};

const tick = () => new Promise((resolve) => setImmediate(resolve));

test('at most `limit` pieces run at once; the others start in the order they asked', async () => {
  const gate = createFifoGate(2);
  const started: number[] = [];
  const pieces = Array.from({ length: 5 }, () => held());
  const results = pieces.map((piece, index) =>
    gate.run(() => {
      started.push(index);
      return piece.done;
    }),
  );
  await tick();
  expect(started).toEqual([0, 1]);
  pieces[1].end('b');
  await tick();
  expect(started).toEqual([0, 1, 2]);
  pieces[0].end('a');
  pieces[2].end('c');
  await tick();
  expect(started).toEqual([0, 1, 2, 3, 4]);
  pieces[3].end('d');
  pieces[4].end('e');
  expect(await Promise.all(results)).toEqual(['a', 'b', 'c', 'd', 'e']);
});

test('a piece that fails, or throws before it awaits, gives its place up', async () => {
  const gate = createFifoGate(1);
  const first = held();
  const failing = gate.run(() => first.done);
  const throwing = gate.run(() => {
    throw new Error('at once');
  });
  const last = gate.run(() => 'ran');
  first.fail(new Error('later'));
  await expect(failing).rejects.toThrow('later');
  await expect(throwing).rejects.toThrow('at once');
  expect(await last).toBe('ran');
});
