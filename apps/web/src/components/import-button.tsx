import { Button } from '@mui/material';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { Link as RouterLink } from 'react-router';
import type { ImportKind } from '@portal/shared';
import { usePermissions } from '../lib/session/use-permission';
import { useRoutePrefix } from '../lib/use-route-prefix';

/**
 * A list's way to import its records ({prefix}/imports/:kind), shown only to whoever the import page
 * lets in: holders of the kind's IMPORT, as the server requires.
 */
export function ImportButton({ kind, label }: { kind: ImportKind; label: string }) {
  const { mayOpen } = usePermissions();
  const prefix = useRoutePrefix();
  if (!mayOpen(`imports/${kind}`)) return null;
  return (
    <Button
      variant="outlined"
      startIcon={<UploadFileIcon />}
      component={RouterLink}
      to={`${prefix}/imports/${kind}`}
    >
      {label}
    </Button>
  );
}
