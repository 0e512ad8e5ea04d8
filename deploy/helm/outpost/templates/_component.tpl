{{/*
A stateless fleet component: Deployment, Service, HorizontalPodAutoscaler and PodDisruptionBudget.
Called with (dict "root" $ "component" "console" "surfaces" "console" "settings" .Values.console).
*/}}
{{- define "outpost.component" -}}
{{- $root := .root -}}
{{- $name := printf "%s-%s" (include "outpost.fullname" $root) .component -}}
{{- $selector := include "outpost.selectorLabels" (dict "root" $root "component" .component) -}}
{{- $secret := include "outpost.secretName" $root -}}
{{- $origin := include "outpost.consoleOrigin" $root -}}
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ $name }}
  labels:
    {{- include "outpost.labels" $root | nindent 4 }}
    app.kubernetes.io/component: {{ .component }}
spec:
  {{- if not .settings.autoscaling.enabled }}
  replicas: {{ .settings.replicas }}
  {{- end }}
  selector:
    matchLabels:
      {{- $selector | nindent 6 }}
  template:
    metadata:
      labels:
        {{- $selector | nindent 8 }}
      annotations:
        checksum/gateway-config: {{ $root.Values.config.gatewayConfig | sha256sum | trunc 16 | quote }}
    spec:
      terminationGracePeriodSeconds: {{ $root.Values.terminationGracePeriodSeconds }}
      {{- if $root.Values.imagePullSecrets }}
      imagePullSecrets:
        {{- toYaml $root.Values.imagePullSecrets | nindent 8 }}
      {{- end }}
      securityContext:
        runAsNonRoot: true
        runAsUser: 1000
        fsGroup: 1000
      containers:
        - name: outpost
          image: {{ include "outpost.image" $root | quote }}
          imagePullPolicy: {{ $root.Values.image.pullPolicy }}
          ports:
            - name: http
              containerPort: 4096
          env:
            - name: OUTPOST_SURFACES
              value: {{ .surfaces | quote }}
            - name: HOST
              value: "0.0.0.0"
            - name: PORT
              value: "4096"
            - name: OUTPOST_DATA_DIR
              value: /data
            - name: LOG_FORMAT
              value: json
            - name: LOG_LEVEL
              value: {{ $root.Values.config.logLevel | quote }}
            - name: OUTPOST_TRUST_PROXY
              value: {{ $root.Values.config.trustProxy | quote }}
            - name: OUTPOST_DRAIN_DELAY_MS
              value: {{ $root.Values.config.drainDelayMs | quote }}
            - name: OUTPOST_SHUTDOWN_GRACE_MS
              value: {{ $root.Values.config.shutdownGraceMs | quote }}
            {{- if $origin }}
            - name: OUTPOST_CONSOLE_ORIGIN
              value: {{ $origin | quote }}
            {{- end }}
            {{- if $root.Values.config.gatewayConfig }}
            - name: OUTPOST_GATEWAY_CONFIG
              value: /config/gateway.yaml
            {{- end }}
            - name: OUTPOST_SECRET_KEY
              valueFrom:
                secretKeyRef:
                  name: {{ $secret }}
                  key: {{ $root.Values.secret.keys.secretKey }}
            - name: DATABASE_URL
              valueFrom:
                secretKeyRef:
                  name: {{ $secret }}
                  key: {{ $root.Values.secret.keys.databaseUrl }}
            - name: REDIS_URL
              valueFrom:
                secretKeyRef:
                  name: {{ $secret }}
                  key: {{ $root.Values.secret.keys.redisUrl }}
                  optional: true
            {{- with $root.Values.config.extraEnv }}
            {{- toYaml . | nindent 12 }}
            {{- end }}
          {{- include "outpost.probes" $root | nindent 10 }}
          resources:
            {{- toYaml .settings.resources | nindent 12 }}
          volumeMounts:
            - name: data
              mountPath: /data
            {{- if $root.Values.config.gatewayConfig }}
            - name: gateway-config
              mountPath: /config
              readOnly: true
            {{- end }}
      volumes:
        # No database, no projects: the usage journal, which outlives a killed container (the restarted one writes
        # what the killed one had not), and generated files. It goes with the pod.
        - name: data
          emptyDir: {}
        {{- if $root.Values.config.gatewayConfig }}
        - name: gateway-config
          configMap:
            name: {{ include "outpost.fullname" $root }}-gateway-config
        {{- end }}
      {{- with .settings.nodeSelector }}
      nodeSelector:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with .settings.tolerations }}
      tolerations:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with .settings.affinity }}
      affinity:
        {{- toYaml . | nindent 8 }}
      {{- end }}
---
apiVersion: v1
kind: Service
metadata:
  name: {{ $name }}
  labels:
    {{- include "outpost.labels" $root | nindent 4 }}
    app.kubernetes.io/component: {{ .component }}
spec:
  type: {{ $root.Values.service.type }}
  selector:
    {{- $selector | nindent 4 }}
  ports:
    - name: http
      port: {{ $root.Values.service.port }}
      targetPort: http
{{- if .settings.autoscaling.enabled }}
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: {{ $name }}
  labels:
    {{- include "outpost.labels" $root | nindent 4 }}
    app.kubernetes.io/component: {{ .component }}
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: {{ $name }}
  minReplicas: {{ .settings.autoscaling.minReplicas }}
  maxReplicas: {{ .settings.autoscaling.maxReplicas }}
  metrics:
    - type: Resource
      resource:
        name: cpu
        target:
          type: Utilization
          averageUtilization: {{ .settings.autoscaling.targetCPUUtilizationPercentage }}
{{- end }}
{{- if .settings.podDisruptionBudget.enabled }}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: {{ $name }}
  labels:
    {{- include "outpost.labels" $root | nindent 4 }}
    app.kubernetes.io/component: {{ .component }}
spec:
  maxUnavailable: {{ .settings.podDisruptionBudget.maxUnavailable }}
  selector:
    matchLabels:
      {{- $selector | nindent 6 }}
{{- end }}
{{- end }}
