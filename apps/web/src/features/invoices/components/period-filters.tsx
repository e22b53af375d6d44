import { useMemo } from 'react';
import { MenuItem, TextField } from '@mui/material';
import { financialYearOf } from '@portal/shared';
import { FINANCIAL_YEAR_MONTHS, labels } from '../labels';
import { financialYearOptions } from '../utils/document-format';

const ALL = 'all';

export interface PeriodFiltersProps {
  financialYear: number | null;
  month: number | null;
  /** A new year clears the month; "all years" as null. */
  onFinancialYearChange: (year: number | null) => void;
  onMonthChange: (month: number | null) => void;
}

/** The financial year (FY 2017-18 to the current one, newest first) and a month of it, April first. */
export function PeriodFilters({
  financialYear,
  month,
  onFinancialYearChange,
  onMonthChange,
}: PeriodFiltersProps) {
  const years = useMemo(() => financialYearOptions(financialYearOf(new Date()).startYear), []);
  return (
    <>
      <TextField
        select
        size="small"
        label={labels.financialYear}
        value={financialYear ?? ALL}
        onChange={(event) =>
          onFinancialYearChange(event.target.value === ALL ? null : Number(event.target.value))
        }
        sx={{ minWidth: 160 }}
      >
        <MenuItem value={ALL}>{labels.allYears}</MenuItem>
        {years.map((year) => (
          <MenuItem key={year.value} value={year.value}>
            {year.label}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        size="small"
        label={labels.month}
        value={month ?? ALL}
        disabled={financialYear === null}
        onChange={(event) => onMonthChange(event.target.value === ALL ? null : Number(event.target.value))}
        sx={{ minWidth: 160 }}
      >
        <MenuItem value={ALL}>{labels.allMonths}</MenuItem>
        {FINANCIAL_YEAR_MONTHS.map((m) => (
          <MenuItem key={m.month} value={m.month}>
            {m.name}
          </MenuItem>
        ))}
      </TextField>
    </>
  );
}
