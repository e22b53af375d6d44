import type { ReactNode } from 'react';
import { InputAdornment, MenuItem, Stack, TextField } from '@mui/material';
import SearchIcon from '@mui/icons-material/Search';

/** The row of controls (search, filters, page size) above a list, in the order the page gives them. */
export function ListToolbar({ children }: { children: ReactNode }) {
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ p: 2, alignItems: { sm: 'center' } }}>
      {children}
    </Stack>
  );
}

export interface SearchFieldProps {
  value: string;
  onChange: (value: string) => void;
  placeholder: string;
  /** The accessible name; the placeholder unless the page names it otherwise. */
  label?: string;
}

/** The search box of a list: a search icon in front, named for screen readers. */
export function SearchField({ value, onChange, placeholder, label = placeholder }: SearchFieldProps) {
  return (
    <TextField
      size="small"
      value={value}
      onChange={(event) => onChange(event.target.value)}
      placeholder={placeholder}
      sx={{ width: { xs: '100%', sm: 360 } }}
      slotProps={{
        htmlInput: { 'aria-label': label },
        input: {
          startAdornment: (
            <InputAdornment position="start">
              <SearchIcon fontSize="small" />
            </InputAdornment>
          ),
        },
      }}
    />
  );
}

export interface PageSizeSelectProps {
  label: string;
  value: number;
  sizes: readonly number[];
  onChange: (size: number) => void;
}

/** The select of how many rows a page shows, for lists that choose it above the table. */
export function PageSizeSelect({ label, value, sizes, onChange }: PageSizeSelectProps) {
  return (
    <TextField
      select
      size="small"
      label={label}
      value={value}
      onChange={(event) => onChange(Number(event.target.value))}
      sx={{ minWidth: 140 }}
    >
      {sizes.map((size) => (
        <MenuItem key={size} value={size}>
          {size}
        </MenuItem>
      ))}
    </TextField>
  );
}
