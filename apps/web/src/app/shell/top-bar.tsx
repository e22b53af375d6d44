import { useState, type ReactNode } from 'react';
import {
  AppBar,
  Avatar,
  Box,
  Button,
  IconButton,
  ListItemText,
  Menu,
  MenuItem,
  Toolbar,
  Tooltip,
  Typography,
} from '@mui/material';
import MenuIcon from '@mui/icons-material/Menu';
import { Link as RouterLink, useNavigate } from 'react-router';
import { messages } from '@portal/shared';
import { useAuth } from '../../lib/session/auth-context';
import { TestModeBadge } from '../../components/test-mode-badge';
import { useRoutePrefix } from '../../lib/use-route-prefix';
import { usePermissions } from '../../lib/session/use-permission';
import { avatarInitials } from '../../components/avatar-initials';
import { userMenuFor } from './user-menu-items';

export interface TopBarProps {
  onToggleSidebar: () => void;
  /** Controls from features, before the user menu (the notifications bell); the route table hands them in. */
  actions?: ReactNode;
}

export function TopBar({ onToggleSidebar, actions }: TopBarProps) {
  const { user, logout } = useAuth();
  const prefix = useRoutePrefix();
  const navigate = useNavigate();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const roleName = user?.role.name;
  const initials = avatarInitials(user);
  const { mayOpen } = usePermissions();
  // The role's menu (user-menu-items.ts), less any page the user may not open.
  const menu = userMenuFor(roleName).filter(
    (item) => item.to === 'logout' || mayOpen(item.to.replace(/^\/dashboard\/?/, '')),
  );

  const choose = async (to: string) => {
    setAnchor(null);
    if (to === 'logout') {
      await logout();
      navigate('/auth/login', { replace: true });
    } else navigate(to);
  };

  return (
    <AppBar
      position="fixed"
      color="inherit"
      sx={{ borderBottom: 1, borderColor: 'divider', zIndex: (t) => t.zIndex.drawer + 1 }}
    >
      <Toolbar sx={{ gap: 1 }}>
        <IconButton
          edge="start"
          aria-label="Toggle navigation"
          onClick={onToggleSidebar}
          sx={{ display: { md: 'none' } }}
        >
          <MenuIcon />
        </IconButton>
        {/*
          On a phone the test-mode marker goes under the name, which is a little smaller there: side by
          side they do not fit at 375 px, and a name on two lines would make the bar taller than the
          space the page leaves for it.
        */}
        <Box
          sx={{
            display: 'flex',
            flexDirection: { xs: 'column', sm: 'row' },
            alignItems: { xs: 'flex-start', sm: 'center' },
            gap: { xs: 0.25, sm: 1 },
          }}
        >
          <Typography
            component={RouterLink}
            to={prefix}
            variant="h6"
            sx={{
              color: 'primary.main',
              textDecoration: 'none',
              fontWeight: 700,
              fontSize: { xs: '1.1rem', sm: '1.25rem' },
              lineHeight: { xs: 1.2, sm: 1.6 },
            }}
          >
            Interview Credits
          </Typography>
          <TestModeBadge />
        </Box>
        <Button component={RouterLink} to={prefix} sx={{ ml: 2, display: { xs: 'none', sm: 'inline-flex' } }}>
          {messages.shell.dashboard}
        </Button>
        <Box sx={{ flexGrow: 1 }} />
        {actions}
        <Tooltip title={user ? `${user.username} (${roleName})` : 'Guest'}>
          <IconButton
            // The initials on the avatar are visible text, so they are part of the name (WCAG 2.5.3).
            aria-label={`Open user menu, ${initials}`}
            aria-haspopup="menu"
            onClick={(e) => setAnchor(e.currentTarget)}
          >
            <Avatar sx={{ width: 34, height: 34, bgcolor: 'primary.main', fontSize: 14 }}>{initials}</Avatar>
          </IconButton>
        </Tooltip>
        <Menu
          anchorEl={anchor}
          open={anchor !== null}
          onClose={() => setAnchor(null)}
          anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
          transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        >
          {menu.map((item) => (
            <MenuItem key={item.label} onClick={() => void choose(item.to)}>
              <ListItemText>{item.label}</ListItemText>
            </MenuItem>
          ))}
        </Menu>
      </Toolbar>
    </AppBar>
  );
}
