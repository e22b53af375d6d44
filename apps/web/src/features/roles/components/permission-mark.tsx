import { Box, Checkbox, Stack, Typography } from '@mui/material';
import CheckIcon from '@mui/icons-material/Check';
import RemoveIcon from '@mui/icons-material/Remove';
import { messages } from '@portal/shared';
import { visuallyHidden } from '../../../components/visually-hidden';

const allowedColor = 'success.main';
const notAllowedColor = 'text.secondary';

/**
 * One permission on the view-only screen: a disabled checkbox (nothing changes there), drawn as a mark
 * that reads at a glance (a green check or a grey dash, at full contrast) instead of MUI's pale
 * disabled box, where ticked and unticked looked alike. Screen readers hear the checkbox's state and
 * the words 'Allowed' or 'Not allowed'.
 */
export function PermissionMark({ allowed, label }: { allowed: boolean; label: string }) {
  return (
    <>
      <Checkbox
        checked={allowed}
        disabled
        icon={<RemoveIcon />}
        checkedIcon={<CheckIcon />}
        slotProps={{ input: { 'aria-label': label } }}
        sx={{ '&.Mui-disabled': { color: allowed ? allowedColor : notAllowedColor } }}
      />
      <Box component="span" sx={visuallyHidden}>
        {allowed ? messages.roles.allowed : messages.roles.notAllowed}
      </Box>
    </>
  );
}

/** What the two marks mean, shown above the grid. */
export function PermissionMarkLegend() {
  return (
    <Stack direction="row" spacing={3} sx={{ mb: 1, alignItems: 'center' }} data-testid="permission-legend">
      <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
        <CheckIcon fontSize="small" sx={{ color: allowedColor }} />
        <Typography variant="body2">{messages.roles.allowed}</Typography>
      </Stack>
      <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
        <RemoveIcon fontSize="small" sx={{ color: notAllowedColor }} />
        <Typography variant="body2">{messages.roles.notAllowed}</Typography>
      </Stack>
    </Stack>
  );
}
