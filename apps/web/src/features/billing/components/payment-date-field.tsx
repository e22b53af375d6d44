import { useRef, type Ref } from 'react';
import { Box, IconButton, InputAdornment, TextField } from '@mui/material';
import CalendarIcon from '@mui/icons-material/CalendarMonthOutlined';
import { formatDate, parseDay } from '@portal/shared';
import { labels } from '../labels';

export interface PaymentDateFieldProps {
  /** The day as typed, day first (`27 Nov 2026`); parseDay reads it. */
  value: string;
  onChange: (value: string) => void;
  onBlur: () => void;
  name: string;
  inputRef: Ref<HTMLInputElement>;
  error?: string;
}

/**
 * The payment date in the portal's date style (`27 Nov 2026`), typed or chosen from the browser's
 * calendar. A native date input shows its value in the browser's own order (11/27/2026 in an American
 * browser), so it stays out of sight and only lends its calendar to the button.
 */
export function PaymentDateField({ value, onChange, onBlur, name, inputRef, error }: PaymentDateFieldProps) {
  const picker = useRef<HTMLInputElement>(null);
  const openCalendar = () => {
    try {
      picker.current?.showPicker();
    } catch {
      // No calendar to show (an older browser): the date is typed instead.
    }
  };
  return (
    <Box sx={{ position: 'relative' }}>
      <TextField
        name={name}
        inputRef={inputRef}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        onBlur={() => {
          // Any day-first spelling the field accepts is shown back the portal's way.
          const day = parseDay(value);
          if (day) onChange(formatDate(day));
          onBlur();
        }}
        label={labels.paymentDate}
        fullWidth
        autoComplete="off"
        error={!!error}
        helperText={error ?? labels.paymentDateHint}
        slotProps={{
          input: {
            endAdornment: (
              <InputAdornment position="end">
                <IconButton edge="end" aria-label={labels.chooseDate} onClick={openCalendar}>
                  <CalendarIcon />
                </IconButton>
              </InputAdornment>
            ),
          },
        }}
      />
      <Box
        component="input"
        type="date"
        ref={picker}
        tabIndex={-1}
        aria-hidden
        value={parseDay(value) ?? ''}
        onChange={(event) => {
          const day = (event.target as HTMLInputElement).value;
          if (day) onChange(formatDate(day));
        }}
        // Under the calendar button, so the browser opens its calendar there; never seen or clicked.
        sx={{
          position: 'absolute',
          right: 8,
          top: 36,
          width: 24,
          height: 1,
          opacity: 0,
          pointerEvents: 'none',
          border: 0,
          p: 0,
        }}
      />
    </Box>
  );
}
