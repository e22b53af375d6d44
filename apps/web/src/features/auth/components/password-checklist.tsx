import { Box, List, ListItem, ListItemIcon, ListItemText, Typography } from '@mui/material';
import CheckIcon from '@mui/icons-material/CheckCircle';
import CrossIcon from '@mui/icons-material/Cancel';
import { messages, PASSWORD_RULES } from '@portal/shared';
import { visuallyHidden } from '../../../components/visually-hidden';

/** The live 'Password Must Contain' checklist, from the shared strength rule. */
export function PasswordChecklist({ password }: { password: string }) {
  return (
    <div>
      <Typography variant="subtitle2" component="h2">
        {messages.password.mustContain}
      </Typography>
      <List dense disablePadding>
        {PASSWORD_RULES.map((rule) => {
          const met = rule.test(password);
          return (
            <ListItem key={rule.id} disableGutters data-rule={rule.id} data-met={met}>
              <ListItemIcon sx={{ minWidth: 30 }}>
                {met ? (
                  <CheckIcon color="success" fontSize="small" />
                ) : (
                  <CrossIcon color="error" fontSize="small" />
                )}
              </ListItemIcon>
              <ListItemText
                primary={
                  <>
                    {rule.label}
                    <Box component="span" sx={visuallyHidden}>
                      {met ? ' (met)' : ' (not met)'}
                    </Box>
                  </>
                }
                sx={{ color: met ? 'success.main' : 'error.main' }}
              />
            </ListItem>
          );
        })}
      </List>
    </div>
  );
}
