/**
 * What a server's caches did, as its `/metrics` tells an operator: for each cache, the look-ups it answered. A
 * scrape shows what the look the scrape before it started found, so this reads the second of two, a second apart.
 */
export const cacheLineOf = async (serverUrl: string): Promise<string> => {
  const scrape = () => fetch(`${serverUrl}/metrics`).then((response) => response.text());
  try {
    await scrape();
    await new Promise((done) => setTimeout(done, 1_000));
    const exposition = await scrape();
    const count = (metric: string, cache: string) =>
      Number(
        exposition.match(
          new RegExp(`^${metric}\\{cache="${cache.replaceAll(".", "\\.")}"\\} (\\S+)$`, "m"),
        )?.[1] ?? 0,
      );
    const caches = [...exposition.matchAll(/^veracity_cache_lookups_total\{cache="([^"]+)"\}/gm)].map(
      (match) => match[1] as string,
    );
    return caches
      .map((cache) => {
        const lookups = count("veracity_cache_lookups_total", cache);
        const hits = count("veracity_cache_hits_total", cache);
        return `${cache} ${hits}/${lookups} (${lookups > 0 ? ((100 * hits) / lookups).toFixed(1) : "-"}%)`;
      })
      .join("; ");
  } catch (error) {
    return `unavailable (${String(error)})`;
  }
};
