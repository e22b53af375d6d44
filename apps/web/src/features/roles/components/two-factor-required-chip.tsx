import { Chip } from '@mui/material';
import LockIcon from '@mui/icons-material/LockOutlined';
import { labels } from '../labels';

/** Marks a role whose users must sign in with a second factor. */
export function TwoFactorRequiredChip() {
  return (
    <Chip
      size="small"
      variant="outlined"
      color="warning"
      icon={<LockIcon />}
      label={labels.twoFactorRequired}
    />
  );
}
