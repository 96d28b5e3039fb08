/** At most this many distinct values per label; later ones are counted as "other". */
export const maxLabelValues = 32;

const labelPattern = /^[a-z0-9_.:-]{1,48}$/;

/**
 * Keeps a label's cardinality bounded: label values come from data (citation kinds, failure reasons), and
 * each distinct value is a new time series. Values that look odd or come after the first 32 become "other".
 */
export const makeBoundedLabel = (preset: readonly string[] = []) => {
  const seen = new Set<string>(preset);
  return (value: string): string => {
    const normalized = value.trim().toLowerCase();
    if (!labelPattern.test(normalized)) return "other";
    if (seen.has(normalized)) return normalized;
    if (seen.size >= maxLabelValues) return "other";
    seen.add(normalized);
    return normalized;
  };
};
