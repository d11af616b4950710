/**
 * A duration for people, to the two largest units: `45s`, `3m 20s`, `23h 59m`, `2d 4h`. Negative durations
 * count as zero.
 */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  const units: [number, string][] = [
    [Math.floor(seconds / 86_400), "d"],
    [Math.floor(seconds / 3_600) % 24, "h"],
    [Math.floor(seconds / 60) % 60, "m"],
    [seconds % 60, "s"],
  ];
  const first = units.findIndex(([value]) => value > 0);
  if (first < 0) return "0s";
  return units
    .slice(first, first + 2)
    .filter(([value], i) => i === 0 || value > 0)
    .map(([value, unit]) => `${value}${unit}`)
    .join(" ");
}
