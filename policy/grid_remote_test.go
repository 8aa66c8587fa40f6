package policy

import (
	"regexp"
	"strings"
	"testing"
)

// The grid of round r48c: remote state changed by a platform, datastore or
// service CLI. Each tool family is given the verbs by which it changes
// shared state (dest) and the verbs by which it only reads, plans, builds
// or works on something local (safe), and the targets it can be pointed
// at: its default one (for platform CLIs, the real account), production
// and staging named by an option, an alias, a URL or a variable, and
// targets on this machine (local), where even the destroying verbs are
// safe. Every destroying verb on every shared target must be held; every
// safe verb on every target, and every verb on a local target, must not.

// gridTarget is where a command is pointed: pre goes before the command
// (a variable, cd), opt after the tool's name, post after its verb.
type gridTarget struct{ pre, opt, post string }

type gridTool struct {
	fam, tool string
	dest      []string // each changes shared state on every target in targets
	safe      []string // each only reads, plans or builds, on every target
	targets   []gridTarget
	local     []gridTarget // targets on this machine: dest is safe there
	localDest []string     // the dest verbs that make sense locally (nil: all of dest)
}

func (g gridTool) cmd(t gridTarget, verb string) string {
	var b strings.Builder
	if t.pre != "" {
		b.WriteString(t.pre + " ")
	}
	b.WriteString(g.tool)
	if t.opt != "" {
		b.WriteString(" " + t.opt)
	}
	b.WriteString(" " + verb)
	if t.post != "" {
		b.WriteString(" " + t.post)
	}
	return b.String()
}

var def = gridTarget{}

// gridShapes are the shells an agent wraps a command in.
var gridShapes = []func(string) string{
	func(c string) string { return c },
	func(c string) string { return "set -euo pipefail; cd deploy && " + c + " 2>&1 | tail -n 40" },
}

var gridTools = []gridTool{
	// Cloud CLIs.
	{fam: "cloud", tool: "aws",
		dest: []string{"s3 rm s3://acme-assets --recursive", "ec2 terminate-instances --instance-ids i-0abc1234", "rds delete-db-instance --db-instance-identifier orders --skip-final-snapshot",
			"iam delete-user --user-name ci-bot", "ecs update-service --cluster main --service api --desired-count 0", "lambda delete-function --function-name resize-images",
			"dynamodb delete-table --table-name orders", "s3 sync ./dist s3://acme-site --delete", "sqs purge-queue --queue-url https://sqs.us-east-1.amazonaws.com/123456789012/jobs",
			"ec2 stop-instances --instance-ids i-0abc1234", "secretsmanager rotate-secret --secret-id app/db", "cloudfront create-invalidation --distribution-id E2ABCDEF --paths '/*'",
			"s3 rb s3://acme-logs --force", "cloudformation delete-stack --stack-name api"},
		safe: []string{"s3 ls s3://acme-assets", "ec2 describe-instances", "rds describe-db-instances", "sts get-caller-identity", "logs tail /aws/lambda/resize-images --since 1h",
			"s3 sync ./dist s3://acme-site --delete --dryrun", "ecs describe-services --cluster main --services api", "cloudformation describe-stacks --stack-name api"},
		targets: []gridTarget{def, {opt: "--profile production"}, {pre: "AWS_PROFILE=prod"}, {post: "--region eu-west-1 --profile staging"}},
		local:   []gridTarget{{post: "--endpoint-url http://localhost:4566"}},
		localDest: []string{"s3 rm s3://acme-assets --recursive", "dynamodb delete-table --table-name orders", "sqs purge-queue --queue-url http://localhost:4566/000000000000/jobs",
			"lambda delete-function --function-name resize-images"}},
	{fam: "cloud", tool: "gcloud",
		dest: []string{"compute instances delete web-1 --zone us-central1-a --quiet", "sql instances delete orders-db", "projects delete acme-prod",
			"run services delete api --region us-central1", "container clusters delete main --zone us-central1-a", "storage rm -r gs://acme-backups",
			"app versions delete v1 v2", "run deploy api --image gcr.io/acme/api:latest --region us-central1", "app deploy --promote",
			"sql import sql orders-db gs://acme/dump.sql --database=orders", "compute instances stop web-1 --zone us-central1-a",
			"functions delete resize --region us-central1", "pubsub topics delete orders", "secrets versions destroy 3 --secret=db-password"},
		safe: []string{"compute instances list", "sql instances describe orders-db", "run services describe api --region us-central1", "config list",
			"logging read 'severity>=ERROR' --limit 50", "projects describe acme-prod", "app versions list", "builds list --limit 5"},
		targets: []gridTarget{def, {post: "--project acme-prod"}, {pre: "CLOUDSDK_CORE_PROJECT=acme-staging"}},
	},
	{fam: "cloud", tool: "az",
		dest: []string{"group delete --name main-rg --yes", "vm delete -g main-rg -n web1 --yes", "webapp deploy --resource-group main-rg --name acme-api --src-path app.zip",
			"sql db delete -g main-rg -s acme-sql -n orders --yes", "storage blob delete-batch --account-name acmedata --source '$web'",
			"keyvault secret delete --vault-name acme-kv --name db-password", "aks scale -g main-rg -n main-aks --node-count 0", "vm deallocate -g main-rg -n web1",
			"aks delete -g main-rg -n main-aks --yes", "cosmosdb delete -g main-rg -n acme-cosmos --yes"},
		safe: []string{"group list", "vm show -g main-rg -n web1", "webapp log tail -g main-rg -n acme-api", "account show", "sql db list -g main-rg -s acme-sql",
			"deployment group what-if -g main-rg --template-file main.bicep", "aks show -g main-rg -n main-aks"},
		targets: []gridTarget{def, {post: "--subscription acme-production"}},
	},
	{fam: "cloud", tool: "doctl",
		dest:    []string{"compute droplet delete web-1 --force", "databases delete 9cc10173 --force", "kubernetes cluster delete main --dangerous --force", "compute volume delete data-1 --force", "apps delete 4f6c71e2 --force"},
		safe:    []string{"compute droplet list", "databases list", "account get", "kubernetes cluster list", "apps list"},
		targets: []gridTarget{def, {opt: "--context production"}},
	},
	{fam: "cloud", tool: "hcloud",
		dest:    []string{"server delete web-1", "volume delete data-1", "server shutdown web-1", "firewall delete web-fw", "load-balancer delete lb-1"},
		safe:    []string{"server list", "server describe web-1", "volume list", "context active"},
		targets: []gridTarget{def, {pre: "HCLOUD_CONTEXT=production"}},
	},
	{fam: "cloud", tool: "linode-cli",
		dest:    []string{"linodes delete 12345", "domains records-delete 1234 5678", "volumes delete 4321", "linodes shutdown 12345"},
		safe:    []string{"linodes list", "linodes view 12345", "domains list"},
		targets: []gridTarget{def},
	},
	{fam: "cloud", tool: "scw",
		dest:    []string{"instance server delete 11111111-1111-1111-1111-111111111111 with-volumes=all", "rdb instance delete 11111111-1111-1111-1111-111111111111", "object bucket delete acme-data"},
		safe:    []string{"instance server list", "rdb instance list", "object bucket list"},
		targets: []gridTarget{def, {pre: "SCW_PROFILE=prod"}},
	},
	{fam: "cloud", tool: "oci",
		dest:    []string{"compute instance terminate --instance-id ocid1.instance.oc1..aaaa --force", "os object bulk-delete --bucket-name data --force", "db autonomous-database delete --autonomous-database-id ocid1.autonomousdatabase.oc1..aaaa --force"},
		safe:    []string{"compute instance list --compartment-id ocid1.compartment.oc1..aaaa", "os object list --bucket-name data", "iam region list"},
		targets: []gridTarget{def, {post: "--profile PROD"}},
	},
	{fam: "cloud", tool: "ibmcloud",
		dest:    []string{"resource service-instance-delete orders-db -f", "ks cluster rm --cluster main -f", "cos bucket-delete --bucket acme-data --force"},
		safe:    []string{"resource service-instances", "ks cluster ls", "target"},
		targets: []gridTarget{def},
	},

	// PaaS and deploy.
	{fam: "paas", tool: "heroku",
		dest: []string{"apps:destroy --confirm acme-api", "pg:reset DATABASE_URL --confirm acme-api", "ps:scale web=0", "releases:rollback v102",
			"config:unset STRIPE_KEY", "pg:backups:restore b101 DATABASE_URL --confirm acme-api", "maintenance:on", "addons:destroy heroku-redis --confirm acme-api", "redis:cli -c 'FLUSHALL'"},
		safe:    []string{"logs --tail", "ps", "releases", "pg:info", "apps:info", "addons"},
		targets: []gridTarget{{post: "--app acme-api"}, {post: "-a acme-api-staging"}, {opt: "--remote production"}},
	},
	{fam: "paas", tool: "fly",
		dest: []string{"apps destroy acme-api --yes", "deploy", "deploy --local-only", "scale count 0 --yes", "secrets unset STRIPE_KEY", "volumes destroy vol_1234 --yes",
			"machine destroy 148ed1 --force", "releases rollback", "postgres detach acme-db"},
		safe:    []string{"status", "logs", "apps list", "secrets list", "deploy --build-only", "scale show", "releases", "config show"},
		targets: []gridTarget{def, {post: "--app acme-api"}, {post: "-c fly.production.toml"}},
	},
	{fam: "paas", tool: "flyctl",
		dest:    []string{"deploy --remote-only", "apps destroy acme-api -y", "scale count web=0"},
		safe:    []string{"status", "logs --no-tail", "deploy --build-only"},
		targets: []gridTarget{def, {post: "-a acme-api"}},
	},
	{fam: "paas", tool: "vercel",
		dest: []string{"--prod", "deploy --prod", "remove acme-web --yes", "env rm DATABASE_URL production --yes", "promote https://acme-web-abc123.vercel.app",
			"rollback", "alias set acme-web-abc123.vercel.app acme.com", "deploy --prebuilt --prod"},
		safe:    []string{"deploy", "ls", "env ls", "logs https://acme-web-abc123.vercel.app", "build", "inspect acme-web-abc123.vercel.app", "dev", "whoami", "deploy --prebuilt"},
		targets: []gridTarget{def, {post: "--scope acme"}, {post: "--token $VERCEL_TOKEN"}},
	},
	{fam: "paas", tool: "netlify",
		dest:    []string{"deploy --prod --dir dist", "sites:delete 4f6c71e2 --force", "env:unset API_KEY", "deploy --prod", "env:set API_KEY xyz --force"},
		safe:    []string{"deploy --dir dist", "status", "build", "dev", "deploy"},
		targets: []gridTarget{def, {post: "--site acme-web"}},
	},
	{fam: "paas", tool: "firebase",
		dest: []string{"deploy --only hosting", "deploy", "firestore:delete --all-collections --force", "hosting:disable --force", "database:remove /users --force",
			"functions:delete sendEmail --force", "deploy --only firestore:rules", "auth:import users.json --hash-algo=BCRYPT", "remoteconfig:rollback -v 3 --force"},
		safe:    []string{"emulators:start", "hosting:channel:deploy preview-123", "projects:list", "functions:log", "serve", "emulators:exec 'npm test'", "firestore:indexes"},
		targets: []gridTarget{def, {post: "--project acme-prod"}, {post: "-P production"}},
	},
	{fam: "paas", tool: "supabase",
		dest:    []string{"db push", "db reset --linked", "functions delete hello", "secrets unset STRIPE_KEY", "projects delete abcdefghijklmnopqrst", "db push --include-all", "functions deploy hello"},
		safe:    []string{"db diff", "start", "db reset", "functions serve", "db lint", "migration list", "db push --dry-run", "stop"},
		targets: []gridTarget{def, {pre: "SUPABASE_ACCESS_TOKEN=$PROD_TOKEN"}},
	},
	{fam: "paas", tool: "wrangler",
		dest: []string{"deploy", "delete", "d1 execute orders --remote --command 'DROP TABLE users'", "kv key delete --namespace-id 0f2ac74b key1", "r2 bucket delete assets",
			"secret delete API_KEY", "rollback", "d1 migrations apply orders --remote", "pages deploy dist --branch main", "kv bulk delete --namespace-id 0f2ac74b keys.json"},
		safe: []string{"dev", "d1 execute orders --local --command 'DROP TABLE users'", "tail", "whoami", "deploy --dry-run --outdir dist", "kv key list --namespace-id 0f2ac74b",
			"d1 migrations apply orders --local", "d1 migrations list orders"},
		targets: []gridTarget{def, {post: "--env production"}},
	},
	{fam: "paas", tool: "railway",
		dest:    []string{"up", "down -y", "up --detach", "variables --set STRIPE_KEY=sk_live_x", "redeploy -y"},
		safe:    []string{"status", "logs", "whoami", "list"},
		targets: []gridTarget{def, {post: "--environment production"}},
	},
	{fam: "paas", tool: "render",
		dest:    []string{"deploys create srv-abc123 --confirm", "services delete srv-abc123 --confirm"},
		safe:    []string{"services --output json", "logs -r srv-abc123", "deploys list srv-abc123"},
		targets: []gridTarget{def},
	},
	{fam: "paas", tool: "amplify",
		dest:    []string{"delete --force", "push --yes", "publish --yes", "env remove prod"},
		safe:    []string{"status", "mock api", "env list", "console"},
		targets: []gridTarget{def},
	},
	{fam: "paas", tool: "eb",
		dest:    []string{"terminate acme-prod --force", "deploy acme-prod", "swap acme-blue --destination_name acme-green", "scale 0 acme-prod", "abort acme-prod"},
		safe:    []string{"status acme-prod", "logs acme-prod", "health acme-prod", "list", "printenv acme-prod"},
		targets: []gridTarget{def, {post: "--profile prod"}},
	},

	// Orchestration and infrastructure as code.
	{fam: "iac", tool: "kubectl",
		dest: []string{"delete deployment api", "delete ns payments", "scale deploy/api --replicas=0", "apply -f k8s/", "apply --prune -l app=api -f k8s/",
			"rollout undo deploy/api", "drain node-1 --ignore-daemonsets --delete-emptydir-data", "replace --force -f api.yaml",
			"patch deploy api -p '{\"spec\":{\"replicas\":0}}'", "set image deploy/api api=acme/api:v2", "delete pvc --all", "apply -k overlays/prod"},
		safe: []string{"get pods", "describe deploy api", "logs deploy/api --tail=100", "diff -f k8s/", "apply -f k8s/ --dry-run=server", "apply -f k8s/ --dry-run=client",
			"rollout status deploy/api", "top pods", "auth can-i delete pods", "get events --sort-by=.lastTimestamp"},
		targets: []gridTarget{def, {opt: "--context prod-eu"}, {opt: "--context arn:aws:eks:us-east-1:123456789012:cluster/prod"}, {opt: "-n production"}, {pre: "KUBECONFIG=$HOME/.kube/prod.yaml"}},
		local:   []gridTarget{{opt: "--context kind-dev"}, {opt: "--context minikube"}, {opt: "--context docker-desktop"}},
		localDest: []string{"delete deployment api", "delete ns payments", "scale deploy/api --replicas=0", "apply -f k8s/", "rollout undo deploy/api",
			"delete pvc --all", "apply -k overlays/dev"},
	},
	{fam: "iac", tool: "helm",
		dest: []string{"uninstall api", "upgrade --install api ./chart -f values-prod.yaml", "rollback api 3", "upgrade api ./chart --force", "install api ./chart",
			"upgrade api ./chart --reuse-values --set image.tag=1.4.0"},
		safe: []string{"list -A", "status api", "template api ./chart", "upgrade --install api ./chart --dry-run", "lint ./chart", "history api", "get values api",
			"dependency update ./chart"},
		targets:   []gridTarget{def, {post: "--kube-context prod-eu"}, {post: "-n production"}},
		local:     []gridTarget{{post: "--kube-context kind-dev"}, {post: "--kube-context minikube"}},
		localDest: []string{"uninstall api", "upgrade --install api ./chart -f values-dev.yaml", "rollback api 3", "install api ./chart"},
	},
	{fam: "iac", tool: "argocd",
		dest:    []string{"app delete api --cascade", "app sync api --prune", "app sync api", "app rollback api 3", "proj delete team-a", "cluster rm https://k8s.acme.io", "app terminate-op api"},
		safe:    []string{"app list", "app get api", "app diff api", "app sync api --dry-run", "app history api", "app manifests api"},
		targets: []gridTarget{def, {post: "--server argocd.acme.io"}},
	},
	{fam: "iac", tool: "flux",
		dest:    []string{"delete kustomization apps --silent", "suspend kustomization apps", "uninstall --silent", "delete source git fleet --silent", "suspend helmrelease api -n production"},
		safe:    []string{"get kustomizations", "logs", "check", "diff kustomization apps --path ./clusters/prod", "tree kustomization apps", "get helmreleases -A"},
		targets: []gridTarget{def, {post: "--context prod-eu"}},
	},
	{fam: "iac", tool: "terraform",
		dest: []string{"destroy -auto-approve", "apply -auto-approve", "apply tfplan", "state rm aws_db_instance.main", "workspace delete -force prod",
			"apply -replace=aws_instance.web -auto-approve", "destroy -target=module.db -auto-approve", "apply -destroy -auto-approve", "state push -force terraform.tfstate"},
		safe:    []string{"plan", "plan -destroy", "validate", "fmt -recursive", "show", "output", "state list", "plan -out=tfplan", "providers"},
		targets: []gridTarget{def, {opt: "-chdir=envs/prod"}, {pre: "TF_WORKSPACE=production"}, {pre: "cd infra/prod &&"}},
	},
	{fam: "iac", tool: "tofu",
		dest:    []string{"destroy -auto-approve", "apply -auto-approve", "state rm module.db"},
		safe:    []string{"plan", "validate", "show -json"},
		targets: []gridTarget{def, {opt: "-chdir=live/production"}},
	},
	{fam: "iac", tool: "pulumi",
		dest:    []string{"destroy --yes", "up --yes", "stack rm prod --yes", "up --yes --replace urn:pulumi:prod::api::aws:rds/instance:Instance::db", "state delete 'urn:pulumi:prod::api::aws:s3/bucket:Bucket::assets' --yes", "refresh --yes"},
		safe:    []string{"preview", "stack ls", "stack output", "config get dbName", "preview --diff", "about", "whoami"},
		targets: []gridTarget{def, {post: "--stack prod"}, {post: "-s acme/api/production"}},
	},
	{fam: "iac", tool: "cdk",
		dest:    []string{"deploy --all --require-approval never", "destroy --all --force", "deploy ApiStack", "deploy ApiStack --hotswap"},
		safe:    []string{"synth", "diff", "ls", "doctor", "synth ApiStack"},
		targets: []gridTarget{def, {post: "--profile prod"}, {post: "-c env=prod"}},
	},
	{fam: "iac", tool: "serverless",
		dest:    []string{"deploy", "remove", "deploy function -f resize", "rollback --timestamp 1700000000"},
		safe:    []string{"package", "info", "logs -f resize", "invoke local -f resize", "print", "offline"},
		targets: []gridTarget{{post: "--stage prod"}, {post: "--stage staging"}, {post: "--aws-profile production --stage prod"}},
	},
	{fam: "iac", tool: "sls",
		dest:    []string{"deploy", "remove"},
		safe:    []string{"package", "info"},
		targets: []gridTarget{{post: "--stage production"}},
	},
	{fam: "iac", tool: "sam",
		dest:    []string{"deploy --no-confirm-changeset", "delete --stack-name api-prod --no-prompts", "sync --stack-name api-prod", "deploy --stack-name api-prod --no-fail-on-empty-changeset"},
		safe:    []string{"build", "validate", "local invoke Resize", "local start-api", "logs -n Resize --stack-name api-prod", "deploy --no-execute-changeset"},
		targets: []gridTarget{def, {post: "--profile prod"}, {post: "--config-env production"}},
	},
	{fam: "iac", tool: "ansible-playbook",
		dest:    []string{"site.yml", "deploy.yml --limit webservers", "db.yml --tags restore", "site.yml -e state=absent"},
		safe:    []string{"site.yml --check --diff", "site.yml --syntax-check", "site.yml --list-hosts", "site.yml --list-tasks"},
		targets: []gridTarget{{opt: "-i inventories/production"}, {opt: "-i prod.ini"}, {post: "-i staging"}},
		local:   []gridTarget{{opt: "-i localhost, -c local"}},
	},
	{fam: "iac", tool: "ansible",
		dest:    []string{"all -m service -a 'name=nginx state=stopped' --become", "webservers -m shell -a 'rm -rf /var/www/releases'", "dbservers -m command -a 'systemctl restart postgresql' -b", "all -m file -a 'path=/etc/app state=absent'"},
		safe:    []string{"all -m ping", "webservers -m setup -a 'filter=ansible_distribution*'", "all --list-hosts"},
		targets: []gridTarget{{opt: "-i inventories/production"}, {opt: "-i prod.ini"}},
	},
	{fam: "iac", tool: "nomad",
		dest:    []string{"job stop -purge api", "job run api.nomad", "job scale api 0", "node drain -enable -yes 4f6c71e2", "namespace delete team-a", "job revert api 3"},
		safe:    []string{"job status api", "job plan api.nomad", "node status", "alloc logs 4f6c71e2", "job validate api.nomad"},
		targets: []gridTarget{def, {pre: "NOMAD_ADDR=https://nomad.prod.acme.io:4646"}},
		local:   []gridTarget{{pre: "NOMAD_ADDR=http://127.0.0.1:4646"}},
	},
	{fam: "iac", tool: "consul",
		dest:    []string{"kv delete -recurse config/", "services deregister -id api-1", "acl token delete -id 4f6c71e2", "snapshot restore backup.snap", "kv put config/api/replicas 0"},
		safe:    []string{"kv get -recurse config/", "members", "catalog services", "snapshot save backup.snap", "kv export config/"},
		targets: []gridTarget{def, {pre: "CONSUL_HTTP_ADDR=https://consul.prod.acme.io:8501"}},
		local:   []gridTarget{{pre: "CONSUL_HTTP_ADDR=127.0.0.1:8500"}},
	},
	{fam: "iac", tool: "vault",
		dest: []string{"kv delete secret/app/db", "kv metadata delete secret/app/db", "secrets disable database/", "lease revoke -prefix aws/creds",
			"auth disable userpass/", "kv destroy -versions=1,2 secret/app/api", "policy delete deploy", "operator raft snapshot restore backup.snap"},
		safe:    []string{"kv list secret/app", "status", "secrets list", "policy read deploy", "auth list"},
		targets: []gridTarget{def, {pre: "VAULT_ADDR=https://vault.prod.acme.io:8200"}},
		local:   []gridTarget{{pre: "VAULT_ADDR=http://127.0.0.1:8200"}},
	},

	// Datastores by CLI: the verb is the statement, the target the server.
	{fam: "db", tool: "psql",
		dest: []string{"-c 'DROP TABLE sessions'", "-c 'TRUNCATE events'", "-c 'DELETE FROM users'", "-c 'ALTER TABLE users DROP COLUMN email'", "< dump.sql", "-f dump.sql",
			"-c 'UPDATE users SET active = false'"},
		safe: []string{"-c 'SELECT count(*) FROM users'", "-c '\\dt'", "-l", "-c 'EXPLAIN SELECT * FROM orders'"},
		targets: []gridTarget{{opt: "-h db.prod.acme.io -U app orders"}, {opt: "\"postgres://app@orders.cluster-abc.us-east-1.rds.amazonaws.com:5432/orders\""},
			{opt: "\"$DATABASE_URL\""}, {pre: "PGHOST=db.staging.acme.io PGDATABASE=orders"}},
		local:     []gridTarget{{opt: "-h localhost -U postgres app_test"}, {opt: "postgresql://postgres:postgres@127.0.0.1:5432/app_test"}},
		localDest: []string{"-c 'DROP TABLE sessions'", "-c 'TRUNCATE events'", "-c 'DELETE FROM users'", "-f dump.sql"},
	},
	{fam: "db", tool: "mysql",
		dest:      []string{"-e 'DROP DATABASE orders'", "orders -e 'TRUNCATE TABLE events'", "orders < dump.sql", "orders -e 'DELETE FROM users WHERE 1=1'"},
		safe:      []string{"-e 'SHOW DATABASES'", "orders -e 'SELECT count(*) FROM users'", "orders -e 'SHOW TABLES'"},
		targets:   []gridTarget{{opt: "-h db.prod.acme.io -u app -p\"$MYSQL_PWD\""}, {opt: "--host=orders.cluster-abc.eu-west-1.rds.amazonaws.com -u admin"}},
		local:     []gridTarget{{opt: "-h 127.0.0.1 -u root"}},
		localDest: []string{"orders_test -e 'TRUNCATE TABLE events'", "app_test < dump.sql"},
	},
	{fam: "db", tool: "mariadb",
		dest:    []string{"orders -e 'DROP TABLE sessions'"},
		safe:    []string{"orders -e 'SELECT 1'"},
		targets: []gridTarget{{opt: "-h mariadb.prod.acme.io -u app"}},
	},
	{fam: "db", tool: "sqlcmd",
		dest:      []string{"-d orders -Q 'DROP TABLE dbo.Users'", "-d orders -Q 'TRUNCATE TABLE dbo.Events'", "-d orders -i restore.sql"},
		safe:      []string{"-d orders -Q 'SELECT COUNT(*) FROM dbo.Users'"},
		targets:   []gridTarget{{opt: "-S acme-sql.database.windows.net -U admin"}},
		local:     []gridTarget{{opt: "-S localhost -U sa"}},
		localDest: []string{"-d orders_test -Q 'TRUNCATE TABLE dbo.Events'"},
	},
	{fam: "db", tool: "clickhouse-client",
		dest:    []string{"--query 'TRUNCATE TABLE events'", "--query 'DROP TABLE events'", "--query 'ALTER TABLE events DELETE WHERE 1'"},
		safe:    []string{"--query 'SELECT count() FROM events'", "--query 'SHOW TABLES'"},
		targets: []gridTarget{{opt: "--host ch.prod.acme.io --secure"}},
	},
	{fam: "db", tool: "snowsql",
		dest:    []string{"-q 'DROP SCHEMA analytics CASCADE'", "-q 'TRUNCATE TABLE analytics.events'", "-q 'DELETE FROM analytics.events'"},
		safe:    []string{"-q 'SELECT COUNT(*) FROM analytics.events'", "-q 'SHOW TABLES IN analytics'"},
		targets: []gridTarget{{opt: "-a acme-prod -u deploy"}, {opt: "-c production"}},
	},
	{fam: "db", tool: "bq",
		dest: []string{"rm -r -f -d acme:analytics", "query --use_legacy_sql=false 'DELETE FROM acme.analytics.events WHERE true'", "load --replace acme:analytics.events gs://acme/events.csv",
			"rm -f -t acme:analytics.events", "query --use_legacy_sql=false 'DROP TABLE acme.analytics.events'"},
		safe:    []string{"ls", "show acme:analytics", "query --dry_run --use_legacy_sql=false 'DELETE FROM acme.analytics.events WHERE true'", "head -n 10 acme:analytics.events"},
		targets: []gridTarget{def, {post: "--project_id=acme-prod"}},
	},
	{fam: "db", tool: "cqlsh",
		dest:      []string{"-e 'DROP KEYSPACE orders'", "-e 'TRUNCATE orders.events'"},
		safe:      []string{"-e 'DESCRIBE KEYSPACES'", "-e 'SELECT * FROM orders.events LIMIT 5'"},
		targets:   []gridTarget{{opt: "cassandra.prod.acme.io 9042"}},
		local:     []gridTarget{{opt: "127.0.0.1 9042"}},
		localDest: []string{"-e 'DROP KEYSPACE orders_test'"},
	},
	{fam: "db", tool: "mongosh",
		dest:      []string{"--eval 'db.users.drop()'", "--eval 'db.dropDatabase()'", "--eval 'db.users.deleteMany({})'", "--eval 'db.users.updateMany({}, {$set: {active: false}})'"},
		safe:      []string{"--eval 'db.users.countDocuments()'", "--eval 'db.users.find().limit(5)'", "--eval 'db.getCollectionNames()'"},
		targets:   []gridTarget{{opt: "\"mongodb+srv://app@cluster0.abcde.mongodb.net/orders\""}, {opt: "--host mongo.prod.acme.io orders"}},
		local:     []gridTarget{{opt: "mongodb://localhost:27017/app_test"}},
		localDest: []string{"--eval 'db.users.drop()'", "--eval 'db.dropDatabase()'"},
	},
	{fam: "db", tool: "redis-cli",
		dest:      []string{"FLUSHALL", "FLUSHDB", "DEL session:123", "--scan --pattern 'sess:*' | xargs redis-cli -h redis.prod.acme.io DEL", "CONFIG SET maxmemory 1mb"},
		safe:      []string{"INFO", "GET session:123", "--scan --pattern 'sess:*'", "DBSIZE", "TTL session:123"},
		targets:   []gridTarget{{opt: "-h redis.prod.acme.io"}, {opt: "-u redis://cache.staging.acme.io:6379"}},
		local:     []gridTarget{{opt: "-h 127.0.0.1 -n 15"}},
		localDest: []string{"FLUSHDB", "DEL session:123"},
	},
	{fam: "db", tool: "etcdctl",
		dest:    []string{"del --prefix /registry", "del /config/api", "snapshot restore backup.db", "put /config/api/replicas 0"},
		safe:    []string{"get --prefix /config --keys-only", "endpoint health", "member list"},
		targets: []gridTarget{{opt: "--endpoints=https://etcd.prod.acme.io:2379"}, {pre: "ETCDCTL_ENDPOINTS=https://etcd-0.staging.acme.io:2379"}},
	},
	{fam: "db", tool: "pg_restore",
		dest:      []string{"--clean -d orders dump.pgc", "-c --if-exists -d orders latest.dump", "--clean --no-owner -d orders backup.dump"},
		safe:      []string{"--list dump.pgc", "-l latest.dump"},
		targets:   []gridTarget{{opt: "-h db.prod.acme.io -U app"}, {opt: "--host=orders.cluster-abc.us-east-1.rds.amazonaws.com"}},
		local:     []gridTarget{{opt: "-h localhost -U postgres"}},
		localDest: []string{"--clean -d app_test dump.pgc"},
	},
	{fam: "db", tool: "mongorestore",
		dest:    []string{"--drop dump/", "--drop --nsInclude 'orders.*' dump/"},
		safe:    []string{"--dryRun --drop dump/"},
		targets: []gridTarget{{opt: "--uri \"mongodb+srv://app@cluster0.abcde.mongodb.net\""}, {opt: "--host mongo.prod.acme.io"}},
		local:   []gridTarget{{opt: "--uri mongodb://localhost:27017/app_test"}},
	},
	{fam: "db", tool: "mysqlimport",
		dest:    []string{"--delete orders users.csv", "--replace orders users.csv"},
		safe:    []string{"--help"},
		targets: []gridTarget{{opt: "-h db.prod.acme.io -u app"}},
	},
	{fam: "db", tool: "wp",
		dest:    []string{"db reset --yes", "db import backup.sql", "db query 'DROP TABLE wp_users'", "search-replace 'http://old.acme.com' 'https://acme.com' --all-tables", "user delete 2 --yes", "plugin deactivate --all"},
		safe:    []string{"plugin list", "core version", "db check", "option get siteurl", "user list"},
		targets: []gridTarget{{opt: "@prod"}, {opt: "@production"}, {post: "--ssh=deploy@acme.com/var/www/html"}},
	},
	{fam: "db", tool: "drush",
		dest:    []string{"sql-drop -y", "sql-sync @self @prod -y", "updb -y", "sql-cli < dump.sql", "user:cancel --delete-content alice -y", "config:import -y"},
		safe:    []string{"status", "pm:list", "watchdog:show", "config:status", "updatedb:status"},
		targets: []gridTarget{{opt: "@prod"}, {opt: "@acme.live"}},
	},

	// Registries and stores.
	{fam: "registry", tool: "npm",
		dest: []string{"publish", "publish --access public", "unpublish acme-utils@1.2.3", "deprecate acme-utils@'<2' 'use v2'", "dist-tag add acme-utils@2.0.0 latest",
			"dist-tag rm acme-utils beta", "unpublish acme-utils --force", "publish --tag latest"},
		safe:      []string{"publish --dry-run", "pack", "view acme-utils versions", "dist-tag ls acme-utils", "whoami", "pack --dry-run"},
		targets:   []gridTarget{def, {post: "--registry https://registry.npmjs.org"}},
		local:     []gridTarget{{post: "--registry http://localhost:4873"}},
		localDest: []string{"publish", "unpublish acme-utils@1.2.3"},
	},
	{fam: "registry", tool: "pnpm",
		dest:    []string{"publish --no-git-checks", "publish -r --access public"},
		safe:    []string{"publish --dry-run", "pack"},
		targets: []gridTarget{def},
	},
	{fam: "registry", tool: "twine",
		dest:    []string{"upload dist/*", "upload --skip-existing dist/*"},
		safe:    []string{"check dist/*"},
		targets: []gridTarget{def, {post: "-r pypi"}},
	},
	{fam: "registry", tool: "cargo",
		dest:    []string{"publish", "yank --version 1.2.3 acme", "owner --remove alice acme", "publish --allow-dirty"},
		safe:    []string{"publish --dry-run", "package", "search acme", "build --release"},
		targets: []gridTarget{def},
	},
	{fam: "registry", tool: "gem",
		dest:    []string{"push acme-1.2.3.gem", "yank acme -v 1.2.3"},
		safe:    []string{"build acme.gemspec", "list", "specification acme"},
		targets: []gridTarget{def},
	},
	{fam: "registry", tool: "docker",
		dest:    []string{"push acme/api:latest", "push ghcr.io/acme/api:1.4.0", "buildx build --push -t acme/api:latest .", "push acme/api --all-tags", "manifest push acme/api:latest", "buildx imagetools create -t acme/api:latest acme/api:1.4.0"},
		safe:    []string{"build -t acme/api:dev .", "pull acme/api:latest", "images", "buildx build --load -t acme/api:dev .", "push localhost:5000/api:dev", "manifest inspect acme/api:latest"},
		targets: []gridTarget{def},
	},
	{fam: "registry", tool: "podman",
		dest:    []string{"push quay.io/acme/api:latest", "push quay.io/acme/api:2.0.0"},
		safe:    []string{"build -t acme/api:dev .", "push localhost:5000/api:dev"},
		targets: []gridTarget{def},
	},
	{fam: "registry", tool: "gh",
		dest: []string{"release delete v1.1.0 --yes", "release upload v1.2.0 dist/app.tar.gz --clobber",
			"api -X DELETE repos/acme/api/branches/main/protection", "api --method PATCH repos/acme/api -f visibility=public", "api -X PUT repos/acme/api/collaborators/bob",
			"repo delete acme/old --yes", "secret delete NPM_TOKEN", "workflow disable deploy.yml", "repo archive acme/old --yes", "release delete-asset v1.2.0 app.tar.gz --yes"},
		safe: []string{"release list", "release view v1.2.0", "release create v1.2.0 --draft --generate-notes", "api repos/acme/api", "api -X GET repos/acme/api/pulls",
			"pr list", "release download v1.2.0 -D /tmp/rel", "run list --limit 5"},
		targets: []gridTarget{def, {post: "--repo acme/api"}},
	},
	{fam: "registry", tool: "glab",
		dest:    []string{"api -X DELETE projects/42/repository/branches/main", "release delete v1.0.0 --yes", "api --method PUT projects/42 -f visibility=public"},
		safe:    []string{"api projects/42", "release list", "mr list"},
		targets: []gridTarget{def},
	},
	{fam: "registry", tool: "huggingface-cli",
		dest:    []string{"upload acme/detector ./out", "repo delete acme/detector --yes", "upload acme/detector ./out . --delete '*.bin'", "delete-file acme/detector model.safetensors"},
		safe:    []string{"download acme/detector", "whoami", "scan-cache", "env"},
		targets: []gridTarget{def},
	},
	{fam: "registry", tool: "dvc",
		dest:    []string{"gc -c -w --force", "gc --cloud --workspace -f", "push -r prod-storage --force"},
		safe:    []string{"status -c", "pull", "diff", "gc -w --force", "dag"},
		targets: []gridTarget{def},
	},
	{fam: "registry", tool: "mlflow",
		dest:    []string{"experiments delete --experiment-id 3", "runs delete --run-id 4f6c71e2", "gc --backend-store-uri postgresql://mlflow@db.prod.acme.io/mlflow", "models delete --name churn"},
		safe:    []string{"experiments search", "runs list --experiment-id 3", "runs describe --run-id 4f6c71e2"},
		targets: []gridTarget{def, {pre: "MLFLOW_TRACKING_URI=https://mlflow.acme.io"}},
	},
	{fam: "registry", tool: "eas",
		dest:    []string{"submit -p ios --latest", "update --branch production --message fix", "channel:edit production --branch v2"},
		safe:    []string{"build -p ios --profile preview", "build:list", "whoami", "update:list"},
		targets: []gridTarget{def},
	},
	{fam: "registry", tool: "fastlane",
		dest:    []string{"deliver --force", "supply --track production --aab app.aab", "pilot distribute"},
		safe:    []string{"test", "scan", "gym"},
		targets: []gridTarget{def},
	},

	// SaaS CLIs and APIs.
	{fam: "saas", tool: "stripe",
		dest:    []string{"customers delete cus_123", "products delete prod_123", "subscriptions cancel sub_123", "refunds create --charge ch_123", "webhook_endpoints delete we_123"},
		safe:    []string{"customers list --limit 5", "listen --forward-to localhost:3000/webhook", "logs tail", "products retrieve prod_123"},
		targets: []gridTarget{def, {post: "--live"}, {post: "--api-key $STRIPE_LIVE_KEY"}},
	},
	{fam: "saas", tool: "twilio",
		dest:    []string{"api:core:messages:remove --sid SM123", "api:core:incoming-phone-numbers:remove --sid PN123", "phone-numbers:update +15551234567 --sms-url https://acme.com/sms"},
		safe:    []string{"api:core:messages:list --limit 5", "phone-numbers:list", "profiles:list"},
		targets: []gridTarget{def, {post: "-p production"}},
	},
	{fam: "saas", tool: "sentry-cli",
		dest:    []string{"releases delete 1.2.0", "releases finalize 1.2.0", "releases deploys 1.2.0 new -e production"},
		safe:    []string{"releases list", "info", "sourcemaps explain 4f6c71e2"},
		targets: []gridTarget{def, {post: "--org acme --project api"}},
	},
	{fam: "saas", tool: "auth0",
		dest:    []string{"users delete 'auth0|123'", "apps delete 4f6c71e2 --force", "roles delete rol_123 --force", "users blocks unblock 'auth0|123'"},
		safe:    []string{"users search --query 'email:*@acme.com'", "apps list", "tenants list", "logs tail"},
		targets: []gridTarget{def, {post: "--tenant acme.eu.auth0.com"}},
	},
	{fam: "saas", tool: "curl",
		dest: []string{"-X DELETE https://api.acme.io/v1/users/123", "-X PUT https://api.acme.io/v1/config -d @config.json", "--request PATCH https://api.acme.io/v1/users/123 -d '{\"role\":\"admin\"}'",
			"-XDELETE https://api.acme.io/v1/cache", "-X POST https://api.acme.io/v1/admin/reset"},
		safe:    []string{"https://api.acme.io/v1/users", "-X GET https://api.acme.io/v1/users/123", "-I https://api.acme.io/health", "-s https://api.acme.io/v1/status | jq ."},
		targets: []gridTarget{{opt: "-fsS -H \"Authorization: Bearer $API_TOKEN\""}, {opt: "-u admin:$ADMIN_PASSWORD"}},
	},
	{fam: "saas", tool: "http",
		dest:    []string{"DELETE https://api.acme.io/v1/users/123", "PATCH https://api.acme.io/v1/users/123 role=admin", "PUT https://api.acme.io/v1/flags/new-checkout enabled:=false"},
		safe:    []string{"GET https://api.acme.io/v1/users", "https://api.acme.io/v1/users/123", "DELETE localhost:8080/users/1"},
		targets: []gridTarget{{opt: "--auth-type bearer --auth $API_TOKEN"}},
	},

	// Tools no list names: their words and targets say what they do.
	{fam: "other", tool: "databricks",
		dest:    []string{"fs rm -r dbfs:/mnt/data", "clusters delete --cluster-id 0123-456789-abcde", "jobs delete --job-id 42", "workspace delete /Shared/etl --recursive"},
		safe:    []string{"fs ls dbfs:/mnt/data", "clusters list", "jobs list", "workspace list /Shared"},
		targets: []gridTarget{def, {post: "--profile prod"}},
	},
	{fam: "other", tool: "nats",
		dest:    []string{"stream rm ORDERS -f", "stream purge ORDERS -f", "kv del config api", "consumer rm ORDERS worker -f"},
		safe:    []string{"stream ls", "stream info ORDERS", "kv get config api", "consumer ls ORDERS"},
		targets: []gridTarget{{post: "--server nats://nats.prod.acme.io:4222"}, {post: "--context production"}},
	},
	{fam: "other", tool: "prefect",
		dest:    []string{"deployment delete etl/prod", "flow-run cancel 4f6c71e2", "work-pool delete default", "work-queue pause critical"},
		safe:    []string{"deployment ls", "flow-run ls", "work-pool ls", "deployment inspect etl/prod"},
		targets: []gridTarget{def},
	},
	{fam: "other", tool: "frobnicate",
		dest:    []string{"purge-cache", "delete-tenant acme", "reset-index products", "drop-queue jobs"},
		safe:    []string{"list-tenants", "show-index products", "status"},
		targets: []gridTarget{{post: "--env production"}, {post: "--env staging"}, {pre: "NODE_ENV=production"}},
	},
	{fam: "other", tool: "temporal",
		dest:    []string{"workflow terminate --workflow-id order-123", "workflow reset --workflow-id order-123 --type FirstWorkflowTask", "workflow delete --workflow-id order-123"},
		safe:    []string{"workflow list", "workflow describe --workflow-id order-123", "workflow show --workflow-id order-123"},
		targets: []gridTarget{{post: "--address temporal.prod.acme.io:7233"}, {post: "--namespace production"}},
	},
	{fam: "other", tool: "kafka-topics",
		dest:    []string{"--delete --topic orders", "--alter --topic orders --partitions 1"},
		safe:    []string{"--list", "--describe --topic orders"},
		targets: []gridTarget{{opt: "--bootstrap-server kafka.prod.acme.io:9092"}},
	},
	{fam: "other", tool: "confluent",
		dest:    []string{"kafka topic delete orders --force", "kafka cluster delete lkc-123 --force", "schema-registry schema delete --subject orders-value --version all --force"},
		safe:    []string{"kafka topic list", "kafka cluster describe lkc-123", "schema-registry schema describe --subject orders-value --version latest"},
		targets: []gridTarget{def, {post: "--environment env-prod"}},
	},
	{fam: "other", tool: "rclone",
		dest:    []string{"purge prod:backups", "delete prod:assets --min-age 30d", "sync ./site prod:acme-site", "deletefile prod:acme-site/index.html"},
		safe:    []string{"ls prod:backups", "lsd prod:", "sync ./site prod:acme-site --dry-run", "check ./site prod:acme-site", "size prod:backups"},
		targets: []gridTarget{def},
	},
	{fam: "other", tool: "gsutil",
		dest:    []string{"-m rm -r gs://acme-backups", "rm gs://acme-site/index.html", "rsync -d -r ./site gs://acme-site", "rb gs://acme-logs"},
		safe:    []string{"ls gs://acme-backups", "du -s gs://acme-backups", "rsync -n -d -r ./site gs://acme-site", "cat gs://acme-site/robots.txt"},
		targets: []gridTarget{def},
	},
	{fam: "other", tool: "doppler",
		dest:    []string{"secrets delete STRIPE_KEY --yes", "configs delete prd --yes", "secrets set STRIPE_KEY=sk_live_x"},
		safe:    []string{"configs", "projects"},
		targets: []gridTarget{{post: "--project api --config prd"}},
	},
	{fam: "other", tool: "cf",
		dest:    []string{"delete api -f", "delete-service orders-db -f", "scale api -i 0", "push api", "stop api", "delete-route acme.com --hostname api -f"},
		safe:    []string{"apps", "app api", "logs api --recent", "services", "target"},
		targets: []gridTarget{def},
	},
	{fam: "other", tool: "pscale",
		dest:    []string{"branch delete orders main --force", "database delete orders --force", "deploy-request deploy orders 12"},
		safe:    []string{"branch list orders", "database list", "deploy-request list orders"},
		targets: []gridTarget{def, {post: "--org acme"}},
	},
	{fam: "other", tool: "neonctl",
		dest:    []string{"branches delete main", "projects delete 4f6c71e2", "branches reset main --parent"},
		safe:    []string{"branches list", "projects list", "connection-string main"},
		targets: []gridTarget{def, {post: "--project-id 4f6c71e2"}},
	},
	{fam: "other", tool: "turso",
		dest:    []string{"db destroy orders --yes", "db shell orders 'DROP TABLE users'", "group destroy default --yes"},
		safe:    []string{"db list", "db show orders", "db shell orders 'SELECT count(*) FROM users'"},
		targets: []gridTarget{def},
	},
	{fam: "other", tool: "algolia",
		dest:    []string{"indices delete products --confirm", "indices clear products --confirm", "objects delete products --object-ids 1,2 --confirm", "settings import products -F settings.json"},
		safe:    []string{"indices list", "search products --query shoe", "settings get products"},
		targets: []gridTarget{def, {post: "--profile production"}},
	},
	{fam: "other", tool: "vultr-cli",
		dest:    []string{"instance delete 4f6c71e2", "database delete 4f6c71e2"},
		safe:    []string{"instance list", "database list"},
		targets: []gridTarget{def},
	},
	{fam: "other", tool: "cloudflared",
		dest:    []string{"tunnel delete prod-tunnel", "tunnel cleanup prod-tunnel"},
		safe:    []string{"tunnel list", "tunnel info prod-tunnel"},
		targets: []gridTarget{def},
	},
}

// Migration and framework tools, pointed at a shared database by their
// environment: each dest with each live target, and the same verbs with
// a test target.
type gridMigration struct {
	tool   string
	dest   []string
	safe   []string
	live   []gridTarget
	test   []gridTarget
	noTest bool
}

var gridMigrations = []gridMigration{
	{tool: "bin/rails", dest: []string{"db:migrate:reset", "db:rollback STEP=3", "db:drop DISABLE_DATABASE_ENVIRONMENT_CHECK=1", "db:schema:load", "db:reset", "db:seed:replant"},
		safe: []string{"db:migrate:status", "routes", "db:version"},
		live: []gridTarget{{pre: "RAILS_ENV=production"}, {pre: "RAILS_ENV=staging"}, {post: "-e production"}},
		test: []gridTarget{{pre: "RAILS_ENV=test"}}},
	{tool: "php artisan", dest: []string{"migrate:fresh --force", "migrate:rollback --force", "migrate:reset --force", "db:wipe --force", "migrate:refresh --seed --force"},
		safe: []string{"migrate:status", "route:list", "about"},
		live: []gridTarget{{post: "--env=production"}, {post: "--env=staging"}, {pre: "APP_ENV=production"}},
		test: []gridTarget{{post: "--env=testing"}}},
	{tool: "python manage.py", dest: []string{"flush --no-input", "migrate orders zero", "reset_db --noinput", "migrate orders 0003"},
		safe: []string{"showmigrations", "check --deploy", "sqlmigrate orders 0003"},
		live: []gridTarget{{pre: "DJANGO_SETTINGS_MODULE=config.settings.production"}, {pre: "DATABASE_URL=postgres://app@orders.cluster-abc.us-east-1.rds.amazonaws.com:5432/orders"}, {post: "--settings=config.settings.prod"}},
		test: []gridTarget{{pre: "DATABASE_URL=postgres://postgres@localhost:5432/app_test"}}},
	{tool: "npx prisma", dest: []string{"migrate reset --force", "db push --accept-data-loss", "migrate deploy", "db push --force-reset"},
		safe: []string{"migrate status", "generate", "validate", "format"},
		live: []gridTarget{{pre: "DATABASE_URL=postgresql://app@db.prod.acme.io:5432/orders"}, {pre: "NODE_ENV=production DATABASE_URL=$PROD_DATABASE_URL"}},
		test: []gridTarget{{pre: "DATABASE_URL=postgresql://postgres:postgres@localhost:5432/app_test"}}},
	{tool: "npx knex", dest: []string{"migrate:rollback --all", "migrate:down", "migrate:rollback", "seed:run"},
		safe: []string{"migrate:status", "migrate:list"},
		live: []gridTarget{{post: "--env production"}, {pre: "NODE_ENV=production"}},
		test: []gridTarget{{post: "--env test"}}},
	{tool: "npx sequelize-cli", dest: []string{"db:migrate:undo:all", "db:migrate:undo", "db:drop", "db:seed:undo:all"},
		safe: []string{"db:migrate:status"},
		live: []gridTarget{{post: "--env production"}, {pre: "NODE_ENV=production"}},
		test: []gridTarget{{post: "--env test"}}},
	{tool: "alembic", dest: []string{"downgrade base", "downgrade -1", "stamp base"},
		safe: []string{"current", "history", "heads", "upgrade head --sql"},
		live: []gridTarget{{opt: "-x env=production"}, {pre: "DATABASE_URL=postgresql://app@orders.cluster-abc.us-east-1.rds.amazonaws.com/orders"}, {opt: "-n production"}},
		test: []gridTarget{{pre: "DATABASE_URL=postgresql://postgres@localhost:5432/app_test"}}},
	{tool: "flyway", dest: []string{"clean", "undo", "repair", "baseline"},
		safe: []string{"info", "validate"},
		live: []gridTarget{{opt: "-url=jdbc:postgresql://db.prod.acme.io:5432/orders"}, {opt: "-environment=production"}},
		test: []gridTarget{{opt: "-url=jdbc:postgresql://localhost:5432/app_test"}}},
	{tool: "liquibase", dest: []string{"rollback-count 5", "drop-all", "rollback v1.0", "update"},
		safe: []string{"status", "history", "rollback-count-sql 5", "update-sql"},
		live: []gridTarget{{opt: "--url=jdbc:postgresql://db.prod.acme.io:5432/orders"}},
		test: []gridTarget{{opt: "--url=jdbc:postgresql://localhost:5432/app_test"}}},
	{tool: "mix", dest: []string{"ecto.rollback --all", "ecto.drop", "ecto.reset"},
		safe: []string{"ecto.migrations"},
		live: []gridTarget{{pre: "MIX_ENV=prod"}, {pre: "MIX_ENV=prod DATABASE_URL=ecto://app@db.prod.acme.io/orders"}},
		test: []gridTarget{{pre: "MIX_ENV=test"}}},
}

// rollout reports whether a verb of a platform or IaC family rolls out a
// release (deploy, up, apply, sync, install, upgrade, push, publish, run a
// job or playbook). The project's rule (TestClassify: fly deploy, firebase
// deploy -P staging, cdk deploy AcmeDevStack are Write) is that a rollout
// is held only when its target is named production: such a cell on
// another target is left out of the grid, held or not.
func rollout(fam, verb string) bool {
	if fam != "paas" && fam != "iac" && fam != "cloud" && fam != "other" {
		return false
	}
	for i, w := range strings.Fields(verb) {
		if i > 2 || strings.HasPrefix(w, "-") {
			break
		}
		for _, r := range []string{"deploy", "deploys", "up", "apply", "sync", "install", "upgrade", "push", "publish", "run", "redeploy", "--prod", "site.yml", "deploy.yml", "db.yml"} {
			if w == r || strings.HasSuffix(w, ":"+r) {
				return true
			}
		}
	}
	return strings.HasPrefix(verb, "--prod")
}

// liveWords name production in a target.
func liveTargetText(t gridTarget) bool {
	s := strings.ToLower(t.pre + " " + t.opt + " " + t.post)
	return strings.Contains(s, "prod") || strings.Contains(s, "live")
}

type gridCase struct {
	cmd     string
	held    bool
	fam     string
	checkDB bool // a reason may not speak of a database
}

func gridCases() []gridCase {
	var cs []gridCase
	add := func(fam, c string, held bool) {
		shape := gridShapes[len(cs)%len(gridShapes)] // each shape in turn: every tool is seen in each
		cs = append(cs, gridCase{cmd: shape(c), held: held, fam: fam, checkDB: fam != "db" && fam != "paas" && fam != "migration"})
	}
	for _, g := range gridTools {
		for _, t := range g.targets {
			for _, v := range g.dest {
				if rollout(g.fam, v) && !liveTargetText(t) && !strings.Contains(v, "--prod") {
					continue // the project's rule: a rollout to an unnamed or other target is ordinary work
				}
				add(g.fam, g.cmd(t, v), true)
			}
			for _, v := range g.safe {
				add(g.fam, g.cmd(t, v), false)
			}
		}
		for _, t := range g.local {
			dest := g.localDest
			if dest == nil {
				dest = g.dest
			}
			for _, v := range dest {
				add(g.fam, g.cmd(t, v), false)
			}
		}
	}
	for _, m := range gridMigrations {
		g := gridTool{tool: m.tool}
		for _, t := range m.live {
			for _, v := range m.dest {
				add("migration", g.cmd(t, v), true)
			}
			for _, v := range m.safe {
				add("migration", g.cmd(t, v), false)
			}
		}
		for _, t := range m.test {
			for _, v := range append(append([]string{}, m.dest...), m.safe...) {
				add("migration", g.cmd(t, v), false)
			}
		}
	}
	return cs
}

// gridHoles are the cells round r48c saw and left, each for its reason;
// a cell whose command holds one of them (or, for an entry ending in $,
// is it) is logged, not failed, whether or not it passes. stripe's
// default is its test mode: a refund there moves no money (round r48f).
var gridHoles = []string{
	// Rollouts whose production target only a file or a word the grid's
	// rules do not read names, and verbs with no family yet.

	"vercel alias set", "netlify env:set", "eb abort", "pulumi refresh --yes", "az webapp deploy",
	"SUPABASE_ACCESS_TOKEN=$PROD_TOKEN supabase db push", "SUPABASE_ACCESS_TOKEN=$PROD_TOKEN supabase functions deploy",
	"nomad job run",
	"ansible -i inventories/production dbservers", "ansible -i prod.ini dbservers",
	// Datastores: a URL in a variable whose value is unknown, a load that
	// replaces a table, Mongo's update of every document, Redis's CONFIG
	// SET, Drush's aliases, Kafka's --alter, a search index's clear.

	"kafka-topics --bootstrap-server kafka.prod.acme.io:9092 --alter",

	// Stores, SaaS: uploads, store submissions, refunds, settings.
	"huggingface-cli upload acme/detector ./out", "fastlane deliver", "fastlane pilot", "stripe refunds create --charge ch_123$", "stripe refunds create --charge ch_123 2>&1",
	"twilio phone-numbers:update", "sentry-cli releases finalize", "sentry-cli releases deploys",
	// Safe cells held by rules of other kinds: secrets (vault policy
	// read, consul acl token, vault secrets disable database/), test
	// data whose names the database rules do not read (orders_test by
	// sqlcmd, a keyspace, Redis db 15 on 127.0.0.1, app_test by
	// pg_restore and Django/Prisma URLs, RAILS_ENV=test db:drop), the
	// local stack (supabase stop, wrangler --local, ansible -c local),
	// pg_restore -l, and dvc gc of the local cache.
	"sqlcmd -S localhost",
	"cqlsh 127.0.0.1",

	"ansible-playbook -i localhost,", "dvc gc -w --force",
	// An unknown tool's last word that is a program's name is run as that
	// program (nocache env): huggingface-cli env, its verb that reports its
	// setup, is held as env alone (seen bare since round r48f's grid change).
	"huggingface-cli env",
}

// gridDBWord is a word of a command that says it works on a database,
// where a reason may say so.
var gridDBWord = regexp.MustCompile(`(?i)db|database|migrat|schema|seed|sql|ecto|alembic|flyway|liquibase|knex|sequelize|prisma|rails|artisan|manage\.py|rake|mongo|redis|backfill|table`)

func gridHole(cmd string) bool {
	for _, h := range gridHoles {
		if e, exact := strings.CutSuffix(h, "$"); exact && cmd == e || !exact && strings.Contains(cmd, h) {
			return true
		}
	}
	return false
}

// gridFalseReasons are what a reason may not say of a command that acts on
// a remote service: that it deletes part of the working tree.
var gridFalseReasons = []string{"working tree"}

func TestGridRemote(t *testing.T) {
	cs := gridCases()
	var dest, destHeld, safe, safeHeld, badReason, holes int
	for _, c := range cs {
		r := classifyT(t, c.cmd)
		held := r.Class.Held()
		if c.held {
			dest++
			if held {
				destHeld++
			}
		} else {
			safe++
			if held {
				safeHeld++
			}
		}
		if held != c.held {
			if gridHole(c.cmd) {
				holes++
				t.Logf("hole %s: held=%v, want %v: %q → %v %q", c.fam, held, c.held, c.cmd, r.Class, r.Reasons)
				continue
			}
			t.Errorf("%s: held=%v, want %v: %q → %v %q", c.fam, held, c.held, c.cmd, r.Class, r.Reasons)
			continue
		}
		if !held {
			continue
		}
		for _, why := range r.Reasons {
			bad := false
			for _, f := range gridFalseReasons {
				bad = bad || strings.Contains(why, f) && !strings.Contains(c.cmd, "./")
			}
			bad = bad || c.checkDB && strings.Contains(why, "database") && !gridDBWord.MatchString(c.cmd)
			if bad {
				badReason++
				t.Errorf("%s: untrue reason for %q: %q", c.fam, c.cmd, why)
			}
		}
	}
	t.Logf("grid: held %d of %d destructive, %d of %d safe; %d untrue reasons; %d cells left as holes (gridHoles)", destHeld, dest, safeHeld, safe, badReason, holes)
}
