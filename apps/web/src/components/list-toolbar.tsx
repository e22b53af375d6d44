import type { ReactNode } from 'react';
import { InputAdornment, Stack, TextField } from '@mui/material';
import SearchIcon from '@mui/icons-material/Search';

/** The row of controls (search, filters) above a list, in the order the page gives them; the page size is the pager's. */
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
