import { useState } from 'react';
import {
  Alert,
  Badge,
  Box,
  Button,
  CircularProgress,
  Divider,
  IconButton,
  Link,
  List,
  ListItem,
  ListItemText,
  Popover,
  Stack,
  Tooltip,
  Typography,
} from '@mui/material';
import NotificationsIcon from '@mui/icons-material/NotificationsOutlined';
import MarkReadIcon from '@mui/icons-material/DoneAll';
import { Link as RouterLink } from 'react-router';
import { enqueueSnackbar } from '../../../lib/snackbar';
import { formatDateTime, messages, type PortalNotification } from '@portal/shared';
import { useRoutePrefix, type RoutePrefix } from '../../../lib/use-route-prefix';
import { extractErrorMessage } from '../../../lib/error-message';
import { useNotifications } from '../api/get-notifications';
import { useUnreadCount } from '../api/get-unread-count';
import { useMarkAllNotificationsRead } from '../api/mark-all-read';
import { useMarkNotificationRead } from '../api/mark-read';
import { usePermissions } from '../../../lib/session/use-permission';

export function bellLabel(unread: number): string {
  if (unread === 0) return `${messages.notifications.title}, none unread`;
  return `${messages.notifications.title}, ${unread} unread`;
}

/** A notification's link names /dashboard/...; keep the user on the prefix they are using. */
export function linkUnderPrefix(link: string, prefix: RoutePrefix): string {
  return link.replace(/^\/(login)?dashboard(?=\/|$)/, prefix);
}

/** A notification's link as a page path below the prefix ('' is home), for `mayOpen`. */
function pagePathOf(link: string): string {
  return link.replace(/^\/(login)?dashboard\/?/, '').split(/[?#]/)[0]!;
}

/** The top bar's bell: unread badge (polled every 60 s), a list, mark one or all read. */
export function NotificationsBell() {
  const prefix = useRoutePrefix();
  // A link is offered only to a page the user may open; the title shows either way.
  const { mayOpen } = usePermissions();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const open = anchor !== null;
  const unread = useUnreadCount();
  const list = useNotifications({ enabled: open });
  const markRead = useMarkNotificationRead();
  const markAll = useMarkAllNotificationsRead();
  // The list answer is fresher than the polled count while the popover is open.
  const count = (open ? list.data?.meta.unreadCount : undefined) ?? unread.data ?? 0;

  const readOne = (n: PortalNotification) => {
    if (n.read) return;
    markRead.mutate(n.id, {
      onError: (error) =>
        enqueueSnackbar(extractErrorMessage(error, messages.common.anErrorOccurred), { variant: 'error' }),
    });
  };
  const readAll = () =>
    markAll.mutate(undefined, {
      onError: (error) =>
        enqueueSnackbar(extractErrorMessage(error, messages.common.anErrorOccurred), { variant: 'error' }),
    });

  const items = list.data?.data ?? [];
  return (
    <>
      <Tooltip title={messages.notifications.title}>
        <IconButton
          aria-label={bellLabel(count)}
          aria-haspopup="dialog"
          aria-expanded={open}
          onClick={(event) => setAnchor(event.currentTarget)}
        >
          {/* No badge at zero: MUI keeps an invisible "0" in the DOM, text that the name would not contain. */}
          {count > 0 ? (
            <Badge badgeContent={count} color="error" max={99}>
              <NotificationsIcon />
            </Badge>
          ) : (
            <NotificationsIcon />
          )}
        </IconButton>
      </Tooltip>
      <Popover
        open={open}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{
          paper: {
            role: 'dialog',
            'aria-label': messages.notifications.title,
            sx: { width: { xs: '92vw', sm: 380 }, maxHeight: 480 },
          },
        }}
      >
        <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', px: 2, py: 1 }}>
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
            {messages.notifications.title}
          </Typography>
          <Button size="small" onClick={readAll} disabled={count === 0 || markAll.isPending}>
            {messages.notifications.markAllRead}
          </Button>
        </Stack>
        <Divider />
        {list.isPending ? (
          <Box sx={{ p: 3, textAlign: 'center' }}>
            <CircularProgress size={24} aria-label={messages.common.loading} />
          </Box>
        ) : list.isError ? (
          <Alert severity="error" sx={{ m: 2 }}>
            {extractErrorMessage(list.error, messages.notifications.loadFailed)}
          </Alert>
        ) : items.length === 0 ? (
          <Typography color="text.secondary" sx={{ p: 2 }}>
            {messages.notifications.empty}
          </Typography>
        ) : (
          <List dense disablePadding aria-label={messages.notifications.title}>
            {items.map((n) => (
              <ListItem
                key={n.id}
                divider
                alignItems="flex-start"
                sx={{ bgcolor: n.read ? undefined : 'action.hover' }}
                secondaryAction={
                  !n.read && (
                    <Tooltip title={messages.notifications.markRead}>
                      <IconButton
                        edge="end"
                        size="small"
                        aria-label={`${messages.notifications.markRead}: ${n.title}`}
                        onClick={() => readOne(n)}
                      >
                        <MarkReadIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  )
                }
              >
                <ListItemText
                  primary={
                    n.link && mayOpen(pagePathOf(n.link)) ? (
                      <Link
                        component={RouterLink}
                        to={linkUnderPrefix(n.link, prefix)}
                        onClick={() => {
                          readOne(n);
                          setAnchor(null);
                        }}
                        sx={{ fontWeight: n.read ? 400 : 600 }}
                      >
                        {n.title}
                      </Link>
                    ) : (
                      <Typography component="span" sx={{ fontWeight: n.read ? 400 : 600 }}>
                        {n.title}
                      </Typography>
                    )
                  }
                  secondary={
                    <>
                      <Typography component="span" variant="body2" sx={{ display: 'block' }}>
                        {n.body}
                      </Typography>
                      <time dateTime={n.createdAt}>{formatDateTime(n.createdAt)}</time>
                    </>
                  }
                  sx={{ pr: 4, overflowWrap: 'anywhere' }}
                />
              </ListItem>
            ))}
          </List>
        )}
      </Popover>
    </>
  );
}
