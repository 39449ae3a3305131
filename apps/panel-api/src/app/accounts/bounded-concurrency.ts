/**
 * Runs `work` for every item with at most `limit` at a time, in order of the items. Stops starting
 * new items once `shouldStop` answers true (cooperative cancel); the results of items that did
 * not start are absent from the returned array.
 */
export async function forEachBounded<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<R>,
  shouldStop: () => boolean = () => false,
): Promise<R[]> {
  const results: R[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length && !shouldStop()) {
      const index = next++;
      results[index] = await work(items[index], index);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, () => worker()));
  return results.filter((result) => result !== undefined);
}
