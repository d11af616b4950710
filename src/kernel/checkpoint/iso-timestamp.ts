const MS_PER_DAY = 86_400_000;

/**
 * Formats milliseconds since the epoch like `Date.prototype.toISOString`, without `Date` (which the kernel may not
 * touch). Throws a RangeError for a value that is not a finite number, as `toISOString` does.
 */
export function isoTimestamp(ms: number): string {
  if (!Number.isFinite(ms)) throw new RangeError(`invalid time value: ${ms}`);
  const whole = Math.trunc(ms);
  const days = Math.floor(whole / MS_PER_DAY);
  const { year, month, day } = civilFromDays(days);
  let rest = whole - days * MS_PER_DAY;
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1000);
  const millis = rest - seconds * 1000;
  const time = `${pad(hours, 2)}:${pad(minutes, 2)}:${pad(seconds, 2)}.${pad(millis, 3)}`;
  return `${formatYear(year)}-${pad(month, 2)}-${pad(day, 2)}T${time}Z`;
}

/** The proleptic Gregorian date of a day count since 1970-01-01 (400-year eras of 146 097 days). */
function civilFromDays(days: number): { year: number; month: number; day: number } {
  const shifted = days + 719_468; // days from 0000-03-01, so leap days fall at the end of each year
  const era = Math.floor(shifted / 146_097);
  const dayOfEra = shifted - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra -
      Math.floor(dayOfEra / 1460) +
      Math.floor(dayOfEra / 36_524) -
      Math.floor(dayOfEra / 146_096)) /
      365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const marchMonth = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * marchMonth + 2) / 5) + 1;
  const month = marchMonth < 10 ? marchMonth + 3 : marchMonth - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  return { year, month, day };
}

/** Four digits for years 0–9999, otherwise a sign and six digits (the ISO expanded form `toISOString` uses). */
function formatYear(year: number): string {
  if (year >= 0 && year <= 9999) return pad(year, 4);
  return `${year < 0 ? "-" : "+"}${pad(Math.abs(year), 6)}`;
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, "0");
}
