import Breadcrumb from 'antd/es/breadcrumb';
import { Link, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { AccessModel } from '../lib/access';
import { matchPage, routeChain } from './route-match';

const HOME = '/dashboard/index';

export function NavBreadcrumb({ access }: { access: AccessModel }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const match = matchPage(pathname, access.pages);
  const chain = match ? routeChain(match.route.name).filter((r) => r.breadcrumb !== false) : [];
  const items: { key: string; title: React.ReactNode }[] = [];
  if (pathname !== HOME) items.push({ key: 'home', title: <Link to={HOME}>{t('nav.home')}</Link> });
  chain.forEach((r, i) => {
    const last = i === chain.length - 1;
    // A parent whose only child has the same title (e.g. Packages > Packages) is shown once.
    if (!last && chain[i + 1] && access.title(chain[i + 1]!.name) === access.title(r.name)) return;
    items.push({ key: r.name, title: last ? <span aria-current="page">{access.title(r.name)}</span> : <span>{access.title(r.name)}</span> });
  });
  return <Breadcrumb className="nav-breadcrumb" items={items} data-testid="breadcrumb" />;
}
