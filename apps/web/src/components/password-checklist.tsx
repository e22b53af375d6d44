import { Box, List, ListItem, ListItemIcon, ListItemText, Typography } from '@mui/material';
import CheckIcon from '@mui/icons-material/CheckCircle';
import CrossIcon from '@mui/icons-material/Cancel';
import PendingIcon from '@mui/icons-material/RadioButtonUnchecked';
import { messages, PASSWORD_RULES } from '@portal/shared';
import { visuallyHidden } from './visually-hidden';

/**
 * How a rule shows: a plain requirement before anything is typed, met or still to meet while typing,
 * and an error only once the form shows its errors (after a submit attempt or leaving the field),
 * as every other field does.
 */
export type RuleState = 'neutral' | 'met' | 'unmet' | 'error';

export function ruleState(met: boolean, password: string, showErrors: boolean): RuleState {
  if (met) return 'met';
  if (showErrors) return 'error';
  return password ? 'unmet' : 'neutral';
}

const ICONS: Record<RuleState, React.ReactNode> = {
  neutral: <PendingIcon sx={{ color: 'text.secondary' }} fontSize="small" />,
  unmet: <PendingIcon sx={{ color: 'text.secondary' }} fontSize="small" />,
  met: <CheckIcon color="success" fontSize="small" />,
  error: <CrossIcon color="error" fontSize="small" />,
};

const COLOURS: Record<RuleState, string> = {
  neutral: 'text.primary',
  unmet: 'text.secondary',
  met: 'success.main',
  error: 'error.main',
};

/** Read after the rule by screen readers; nothing while it is only a requirement. */
const SPOKEN: Record<RuleState, string> = {
  neutral: '',
  unmet: ' (not met)',
  met: ' (met)',
  error: ' (not met)',
};

export interface PasswordChecklistProps {
  password: string;
  /** The form shows its errors: submitted once, or the new password field was left. */
  showErrors?: boolean;
}

/** The live 'Password Must Contain' checklist, from the shared strength rule. */
export function PasswordChecklist({ password, showErrors = false }: PasswordChecklistProps) {
  return (
    <div>
      <Typography variant="subtitle2" component="h2">
        {messages.password.mustContain}
      </Typography>
      <List dense disablePadding>
        {PASSWORD_RULES.map((rule) => {
          const met = rule.test(password);
          const state = ruleState(met, password, showErrors);
          return (
            <ListItem key={rule.id} disableGutters data-rule={rule.id} data-met={met} data-state={state}>
              <ListItemIcon sx={{ minWidth: 30 }}>{ICONS[state]}</ListItemIcon>
              <ListItemText
                primary={
                  <>
                    {rule.label}
                    {SPOKEN[state] && (
                      <Box component="span" sx={visuallyHidden}>
                        {SPOKEN[state]}
                      </Box>
                    )}
                  </>
                }
                sx={{ color: COLOURS[state] }}
              />
            </ListItem>
          );
        })}
      </List>
    </div>
  );
}
