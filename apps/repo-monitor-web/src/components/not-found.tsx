import { Button } from '@mantine/core';
import { EmptyState } from '@shared/web-ui';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <EmptyState
      title={t('notFound.title')}
      description={t('notFound.body')}
      action={
        <Button component={Link} to="/dashboard">
          {t('notFound.back')}
        </Button>
      }
    />
  );
}
