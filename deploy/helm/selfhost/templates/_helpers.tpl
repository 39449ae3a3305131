{{/* Release-scoped base name for every object. */}}
{{- define "selfhost.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* Labels of one component; call with (dict "root" $ "component" "panel-api"). */}}
{{- define "selfhost.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .root.Chart.Name .root.Chart.Version | replace "+" "_" }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
{{ include "selfhost.selectorLabels" . }}
{{- end -}}

{{- define "selfhost.selectorLabels" -}}
app.kubernetes.io/name: {{ default .root.Chart.Name .root.Values.nameOverride }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{/* Name of the Secret a service reads its secret variables from. */}}
{{- define "selfhost.panelApi.secretName" -}}
{{- default (printf "%s-panel-api" (include "selfhost.fullname" .)) .Values.panelApi.secret.existingSecret -}}
{{- end -}}

{{/*
"true" when panel-api's /data is a claim: on SQLite (the database file is there), with one replica
(an upgrade then imports an earlier version's settings files from the volume), or with a claim every
pod can mount (existingClaim, or accessMode ReadWriteMany). Several replicas on PostgreSQL otherwise
get an emptyDir each: everything they share is in the database (docs/scaling.md).
*/}}
{{- define "selfhost.panelApi.dataClaim" -}}
{{- $persistence := .Values.panelApi.persistence -}}
{{- if and $persistence.enabled (or (eq .Values.panelApi.database.driver "sqlite") (le (int .Values.panelApi.replicaCount) 1) $persistence.existingClaim (eq $persistence.accessMode "ReadWriteMany")) -}}
true
{{- end -}}
{{- end -}}

{{- define "selfhost.repoMonitor.secretName" -}}
{{- default (printf "%s-repo-monitor" (include "selfhost.fullname" .)) .Values.repoMonitor.secret.existingSecret -}}
{{- end -}}

{{- define "selfhost.repoMonitor.githubKeySecretName" -}}
{{- default (printf "%s-repo-monitor-github-key" (include "selfhost.fullname" .)) .Values.repoMonitor.githubPrivateKey.existingSecret -}}
{{- end -}}

{{/* Pod and container hardening shared by both services (the images run as node, uid 1000). */}}
{{- define "selfhost.podSecurityContext" -}}
runAsNonRoot: true
runAsUser: 1000
runAsGroup: 1000
fsGroup: 1000
seccompProfile:
  type: RuntimeDefault
{{- end -}}

{{- define "selfhost.containerSecurityContext" -}}
allowPrivilegeEscalation: false
readOnlyRootFilesystem: true
capabilities:
  drop: ["ALL"]
{{- end -}}
