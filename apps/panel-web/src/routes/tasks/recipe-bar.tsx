import { Button, FileButton, Group, NativeSelect, Paper, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { toast } from '@shared/web-ui';
import { useTranslation } from 'react-i18next';
import { api, Schemas, unwrap } from '../../api/client';
import type { TaskFormApi } from './task-editor-page';
import { formFromTask } from './task-form';

const RECIPE_FORMAT = 'signpulse-task-recipe';
/** A recipe file bigger than this is not a recipe. */
const MAX_RECIPE_BYTES = 256 * 1024;

/** The recipe's task in the form, keeping the name and accounts already entered. */
function applyRecipe(form: TaskFormApi, task: Record<string, unknown>): void {
  const current = form.getValues();
  const filled = formFromTask({ ...task, name: current.name, last_run: null, created_at: '', updated_at: '' } as unknown as Schemas['SignTaskDto']);
  form.setValues({ ...filled, name: current.name, accounts: current.accounts, all_accounts: current.all_accounts });
}

/** "Start from a recipe" and "import a recipe file" for a new task; "export as recipe" for a stored one. */
export function RecipeBar({ form, original }: { form: TaskFormApi; original?: string }) {
  const { t, i18n } = useTranslation();
  const catalog = useQuery({ queryKey: ['task-recipes'], queryFn: () => unwrap(api.GET('/api/task-recipes')), enabled: original === undefined, staleTime: Infinity });
  const chinese = i18n.language.startsWith('zh');

  const importFile = async (file: File | null) => {
    if (!file) return;
    try {
      if (file.size > MAX_RECIPE_BYTES) throw new Error(t('tasks.recipes.tooLarge'));
      const document: unknown = JSON.parse(await file.text());
      const recipe = document as { format?: unknown; task?: unknown };
      if (recipe?.format !== RECIPE_FORMAT || typeof recipe.task !== 'object' || recipe.task === null || !Array.isArray((recipe.task as { chats?: unknown }).chats)) {
        throw new Error(t('tasks.recipes.notRecipe'));
      }
      applyRecipe(form, recipe.task as Record<string, unknown>);
      toast.success(t('tasks.recipes.imported'));
    } catch (error) {
      toast.error(error instanceof SyntaxError ? new Error(t('tasks.recipes.notRecipe')) : error);
    }
  };

  const exportRecipe = async () => {
    if (!original) return;
    try {
      const recipe = await unwrap(api.GET('/api/sign-tasks/{name}/recipe', { params: { path: { name: original } } }));
      const url = URL.createObjectURL(new Blob([JSON.stringify(recipe, null, 2)], { type: 'application/json' }));
      const link = document.createElement('a');
      link.href = url;
      link.download = `${original}.recipe.json`;
      link.click();
      URL.revokeObjectURL(url);
    } catch (error) {
      toast.error(error);
    }
  };

  if (original !== undefined) {
    return (
      <Group justify="flex-end">
        <Button variant="light" size="xs" onClick={() => void exportRecipe()}>
          {t('tasks.recipes.export')}
        </Button>
      </Group>
    );
  }
  const recipes = catalog.data?.recipes ?? [];
  return (
    <Paper withBorder p="sm">
      <Stack gap="xs">
        <Group align="flex-end" gap="sm" wrap="wrap">
          <NativeSelect
            label={t('tasks.recipes.start')}
            description={t('tasks.recipes.startHint')}
            style={{ flex: '1 1 16rem', minWidth: 0 }}
            value=""
            disabled={recipes.length === 0}
            data={[{ value: '', label: t('tasks.recipes.choose') }, ...recipes.map((recipe) => ({ value: recipe.id, label: chinese ? recipe.title.zh : recipe.title.en }))]}
            onChange={(event) => {
              const recipe = recipes.find((entry) => entry.id === event.currentTarget.value);
              if (!recipe) return;
              applyRecipe(form, recipe.task);
              toast.success(t('tasks.recipes.applied', { recipe: chinese ? recipe.title.zh : recipe.title.en }));
            }}
          />
          <FileButton onChange={(file) => void importFile(file)} accept="application/json,.json">
            {(props) => (
              <Button variant="light" {...props}>
                {t('tasks.recipes.importFile')}
              </Button>
            )}
          </FileButton>
        </Group>
        {catalog.isError ? (
          <Text size="sm" c="red" role="alert">
            {t('tasks.recipes.loadFailed')}
          </Text>
        ) : null}
      </Stack>
    </Paper>
  );
}
