import { Paper, Stack, Typography } from '@mui/material';
import { messages, SCOPES } from '@portal/shared';

/** The help panel of the role editor: what each permission level allows. */
export function PermissionHelp() {
  return (
    <Paper variant="outlined" component="aside" aria-labelledby="permission-help-title" sx={{ p: 2 }}>
      <Typography
        id="permission-help-title"
        variant="subtitle1"
        component="h2"
        sx={{ fontWeight: 600, mb: 1 }}
      >
        {messages.roles.helpTitle}
      </Typography>
      <Stack component="ul" spacing={1} sx={{ m: 0, pl: 2 }}>
        {SCOPES.map((scope) => (
          <Typography key={scope} component="li" variant="body2">
            {messages.roles.help[scope]}
          </Typography>
        ))}
      </Stack>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 1.5 }}>
        {messages.roles.grantHint}
      </Typography>
    </Paper>
  );
}
