{{/* The prefix of every object's name: fullnameOverride, or the release's name. */}}
{{- define "outpost.fullname" -}}
{{- default .Release.Name .Values.fullnameOverride | trunc 40 | trimSuffix "-" -}}
{{- end }}

{{- define "outpost.labels" -}}
app.kubernetes.io/name: outpost
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end }}

{{/* Called with (dict "root" $ "component" "console"). */}}
{{- define "outpost.selectorLabels" -}}
app.kubernetes.io/name: outpost
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end }}

{{- define "outpost.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) -}}
{{- end }}

{{- define "outpost.secretName" -}}
{{- default (printf "%s-secrets" (include "outpost.fullname" .)) .Values.secret.existingSecret -}}
{{- end }}

{{- define "outpost.consoleOrigin" -}}
{{- if .Values.config.consoleOrigin -}}
{{- .Values.config.consoleOrigin -}}
{{- else if .Values.ingress.enabled -}}
{{- printf "https://%s" .Values.ingress.host -}}
{{- end -}}
{{- end }}

{{/* Liveness, readiness and start-up probes on the app's own health routes. */}}
{{- define "outpost.probes" -}}
startupProbe:
  httpGet:
    path: /health/live
    port: http
  periodSeconds: 5
  failureThreshold: 60
livenessProbe:
  httpGet:
    path: /health/live
    port: http
  periodSeconds: 10
  timeoutSeconds: 3
  failureThreshold: 3
readinessProbe:
  httpGet:
    path: /health/ready
    port: http
  # Two misses in 2 s each: out of the endpoints within 4 s, inside the 5 s the app keeps serving after SIGTERM.
  periodSeconds: 2
  timeoutSeconds: 2
  failureThreshold: 2
{{- end }}
