import { NumberInput, Switch, TextInput } from '@mantine/core';
import { SecretInput } from './secret-input';
import { BooleanName, INTEGER_LIMITS, SecretName, SettingsFormValues, SettingsView, TextName } from './settings-form';

/** The edited settings and the saved view, with field builders the sections share. */
export interface FormBinding {
  view: SettingsView;
  values: SettingsFormValues;
  update: (change: (values: SettingsFormValues) => SettingsFormValues) => void;
  neededAgain: readonly SecretName[];
  /** What to fix, by field: the service's refusal of the last save (until the field is edited), else the form's own checks. */
  errors: Readonly<Partial<Record<string, string>>>;
}

export function TextField({ form, name, label, description, placeholder, inputMode }: { form: FormBinding; name: TextName; label: string; description?: string; placeholder?: string; inputMode?: 'url' | 'text' }) {
  return (
    <TextInput
      label={label}
      description={description}
      placeholder={placeholder}
      inputMode={inputMode}
      type={inputMode === 'url' ? 'url' : 'text'}
      value={form.values.text[name]}
      error={form.errors[name]}
      onChange={(event) => {
        const value = event.currentTarget.value;
        form.update((values) => ({ ...values, text: { ...values.text, [name]: value } }));
      }}
    />
  );
}

export function SwitchField({ form, name, label, description }: { form: FormBinding; name: BooleanName; label: string; description?: string }) {
  return (
    <Switch
      label={label}
      description={description}
      checked={form.values.flags[name]}
      onChange={(event) => {
        const checked = event.currentTarget.checked;
        form.update((values) => ({ ...values, flags: { ...values.flags, [name]: checked } }));
      }}
    />
  );
}

export function IntegerField({ form, name, label, description }: { form: FormBinding; name: keyof typeof INTEGER_LIMITS; label: string; description?: string }) {
  const limit = INTEGER_LIMITS[name];
  return (
    <NumberInput
      label={label}
      description={description}
      min={limit.min}
      max={limit.max}
      allowDecimal={false}
      allowNegative={false}
      value={form.values.numbers[name]}
      error={form.errors[name]}
      onChange={(value) => form.update((values) => ({ ...values, numbers: { ...values.numbers, [name]: typeof value === 'number' ? value : value === '' ? '' : Number(value) } }))}
    />
  );
}

export function SecretSetting({ form, name, label, description }: { form: FormBinding; name: SecretName; label: string; description?: string }) {
  return (
    <SecretInput
      label={label}
      description={description}
      isSet={form.view[`${name}_set`]}
      input={form.values.secrets[name]}
      neededAgain={form.neededAgain.includes(name)}
      error={form.errors[name]}
      onChange={(input) => form.update((values) => ({ ...values, secrets: { ...values.secrets, [name]: input } }))}
    />
  );
}
