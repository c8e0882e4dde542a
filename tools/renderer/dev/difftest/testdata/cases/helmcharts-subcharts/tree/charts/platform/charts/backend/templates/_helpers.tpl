{{- define "backend.fullname" -}}
{{ .Release.Name }}-{{ .Chart.Name }}
{{- end }}
