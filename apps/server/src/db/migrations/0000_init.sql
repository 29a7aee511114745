CREATE TABLE "admin_users" (
	"id" serial PRIMARY KEY NOT NULL,
	"username" varchar(64) NOT NULL,
	"name" varchar(50) DEFAULT '' NOT NULL,
	"phone" varchar(30) DEFAULT '' NOT NULL,
	"password_hash" text NOT NULL,
	"role_id" integer NOT NULL,
	"status" smallint DEFAULT 1 NOT NULL,
	"avatar" text DEFAULT '' NOT NULL,
	"last_login_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "institutions" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(100) NOT NULL,
	"grade" smallint NOT NULL,
	"parent_id" integer,
	"path" text DEFAULT '' NOT NULL,
	"username" varchar(64) NOT NULL,
	"password_hash" text NOT NULL,
	"contact_name" varchar(50) DEFAULT '' NOT NULL,
	"phone" varchar(30) DEFAULT '' NOT NULL,
	"province" varchar(6),
	"city" varchar(6),
	"district" varchar(6),
	"address" varchar(200) DEFAULT '' NOT NULL,
	"status" smallint DEFAULT 1 NOT NULL,
	"term_expires_at" timestamp with time zone,
	"balance" bigint DEFAULT 0 NOT NULL,
	"avatar" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "login_failures" (
	"id" serial PRIMARY KEY NOT NULL,
	"username" varchar(64) NOT NULL,
	"ip" varchar(64) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "menus" (
	"id" serial PRIMARY KEY NOT NULL,
	"parent_id" integer,
	"type" smallint NOT NULL,
	"sign" varchar(64) NOT NULL,
	"title" jsonb NOT NULL,
	"icon" varchar(50),
	"sort" integer DEFAULT 0 NOT NULL,
	"hidden" smallint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "role_menus" (
	"role_id" integer NOT NULL,
	"menu_id" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "roles" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(50) NOT NULL,
	"description" varchar(200) DEFAULT '' NOT NULL,
	"status" boolean DEFAULT true NOT NULL,
	"is_super" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" serial PRIMARY KEY NOT NULL,
	"key_hash" varchar(64) NOT NULL,
	"subject_kind" varchar(12) NOT NULL,
	"subject_id" integer NOT NULL,
	"view_role_id" integer,
	"restricted" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"ip" varchar(64) DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "system_params" (
	"key" varchar(64) PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "devices" (
	"id" serial PRIMARY KEY NOT NULL,
	"serial" varchar(40) NOT NULL,
	"model" varchar(40) DEFAULT '' NOT NULL,
	"name" varchar(100) DEFAULT '' NOT NULL,
	"institution_id" integer,
	"status" varchar(12) DEFAULT 'inactive' NOT NULL,
	"activated_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	"remaining_uses" integer,
	"total_inspections" integer DEFAULT 0 NOT NULL,
	"last_seen_at" timestamp with time zone,
	"secret_hash" text DEFAULT '' NOT NULL,
	"remark" varchar(500) DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "acupoint_actions" (
	"id" serial PRIMARY KEY NOT NULL,
	"acupoint_id" integer NOT NULL,
	"waveform" varchar(20) NOT NULL,
	"frequency_hz" double precision NOT NULL,
	"intensity_min" smallint NOT NULL,
	"intensity_max" smallint NOT NULL,
	"minutes" smallint NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "acupoints" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" varchar(16) NOT NULL,
	"name" jsonb NOT NULL,
	"meridian" varchar(4) NOT NULL,
	"location" jsonb DEFAULT '{"zh":"","en":"","es":"","ja":""}'::jsonb NOT NULL,
	"indications" jsonb DEFAULT '{"zh":"","en":"","es":"","ja":""}'::jsonb NOT NULL,
	"is_measurement_point" boolean DEFAULT false NOT NULL,
	"is_treatment_point" boolean DEFAULT false NOT NULL,
	"image" text DEFAULT '' NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"status" smallint DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "disease_acupoints" (
	"disease_id" integer NOT NULL,
	"acupoint_id" integer NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "disease_categories" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" jsonb NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "disease_systems" (
	"disease_id" integer NOT NULL,
	"system_id" integer NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "diseases" (
	"id" serial PRIMARY KEY NOT NULL,
	"category_id" integer NOT NULL,
	"name" jsonb NOT NULL,
	"description" jsonb DEFAULT '{"zh":"","en":"","es":"","ja":""}'::jsonb NOT NULL,
	"advice" jsonb DEFAULT '{"zh":"","en":"","es":"","ja":""}'::jsonb NOT NULL,
	"pattern" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"status" smallint DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "schematic_markers" (
	"id" serial PRIMARY KEY NOT NULL,
	"schematic_id" integer NOT NULL,
	"acupoint_id" integer NOT NULL,
	"x" double precision NOT NULL,
	"y" double precision NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "schematics" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" jsonb NOT NULL,
	"kind" varchar(24) NOT NULL,
	"image" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "systems" (
	"id" serial PRIMARY KEY NOT NULL,
	"parent_id" integer,
	"name" jsonb NOT NULL,
	"weights" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "doctors" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(50) NOT NULL,
	"gender" varchar(8) NOT NULL,
	"phone" varchar(21) NOT NULL,
	"title" varchar(50) DEFAULT '' NOT NULL,
	"institution_id" integer NOT NULL,
	"status" varchar(10) DEFAULT 'enabled' NOT NULL,
	"inspection_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "end_users" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(50) NOT NULL,
	"gender" varchar(8) NOT NULL,
	"birth_date" date,
	"phone" varchar(21),
	"id_number" varchar(32),
	"height_tenths" integer,
	"weight_tenths" integer,
	"institution_id" integer NOT NULL,
	"inspection_count" integer DEFAULT 0 NOT NULL,
	"last_inspection_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "packages" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(100) NOT NULL,
	"kind" varchar(8) NOT NULL,
	"uses" integer,
	"days" integer,
	"price_cents" integer NOT NULL,
	"commission_rate_l1_bp" integer DEFAULT 0 NOT NULL,
	"commission_rate_l2_bp" integer DEFAULT 0 NOT NULL,
	"status" varchar(10) DEFAULT 'off_sale' NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"description" varchar(500) DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "packages_kind_ck" CHECK ((kind = 'count' and uses between 1 and 100000 and days is null) or (kind = 'time' and days between 1 and 3650 and uses is null)),
	CONSTRAINT "packages_price_ck" CHECK (price_cents between 0 and 100000000),
	CONSTRAINT "packages_rates_ck" CHECK (commission_rate_l1_bp >= 0 and commission_rate_l2_bp >= 0 and commission_rate_l1_bp + commission_rate_l2_bp <= 10000)
);
--> statement-breakpoint
ALTER TABLE "admin_users" ADD CONSTRAINT "admin_users_role_id_roles_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."roles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "role_menus" ADD CONSTRAINT "role_menus_role_id_roles_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."roles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "role_menus" ADD CONSTRAINT "role_menus_menu_id_menus_id_fk" FOREIGN KEY ("menu_id") REFERENCES "public"."menus"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_institution_id_institutions_id_fk" FOREIGN KEY ("institution_id") REFERENCES "public"."institutions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "acupoint_actions" ADD CONSTRAINT "acupoint_actions_acupoint_id_acupoints_id_fk" FOREIGN KEY ("acupoint_id") REFERENCES "public"."acupoints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disease_acupoints" ADD CONSTRAINT "disease_acupoints_disease_id_diseases_id_fk" FOREIGN KEY ("disease_id") REFERENCES "public"."diseases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disease_acupoints" ADD CONSTRAINT "disease_acupoints_acupoint_id_acupoints_id_fk" FOREIGN KEY ("acupoint_id") REFERENCES "public"."acupoints"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disease_systems" ADD CONSTRAINT "disease_systems_disease_id_diseases_id_fk" FOREIGN KEY ("disease_id") REFERENCES "public"."diseases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disease_systems" ADD CONSTRAINT "disease_systems_system_id_systems_id_fk" FOREIGN KEY ("system_id") REFERENCES "public"."systems"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "diseases" ADD CONSTRAINT "diseases_category_id_disease_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."disease_categories"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schematic_markers" ADD CONSTRAINT "schematic_markers_schematic_id_schematics_id_fk" FOREIGN KEY ("schematic_id") REFERENCES "public"."schematics"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schematic_markers" ADD CONSTRAINT "schematic_markers_acupoint_id_acupoints_id_fk" FOREIGN KEY ("acupoint_id") REFERENCES "public"."acupoints"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "systems" ADD CONSTRAINT "systems_parent_id_systems_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."systems"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "doctors" ADD CONSTRAINT "doctors_institution_id_institutions_id_fk" FOREIGN KEY ("institution_id") REFERENCES "public"."institutions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "end_users" ADD CONSTRAINT "end_users_institution_id_institutions_id_fk" FOREIGN KEY ("institution_id") REFERENCES "public"."institutions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "admin_users_username_uq" ON "admin_users" USING btree (lower("username"));--> statement-breakpoint
CREATE UNIQUE INDEX "institutions_username_uq" ON "institutions" USING btree (lower("username"));--> statement-breakpoint
CREATE INDEX "institutions_path_idx" ON "institutions" USING btree ("path" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "institutions_parent_idx" ON "institutions" USING btree ("parent_id");--> statement-breakpoint
CREATE INDEX "login_failures_user_idx" ON "login_failures" USING btree ("username","created_at");--> statement-breakpoint
CREATE INDEX "login_failures_ip_idx" ON "login_failures" USING btree ("ip","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "menus_sign_uq" ON "menus" USING btree ("sign");--> statement-breakpoint
CREATE UNIQUE INDEX "role_menus_pk" ON "role_menus" USING btree ("role_id","menu_id");--> statement-breakpoint
CREATE INDEX "role_menus_menu_idx" ON "role_menus" USING btree ("menu_id");--> statement-breakpoint
CREATE UNIQUE INDEX "sessions_key_uq" ON "sessions" USING btree ("key_hash");--> statement-breakpoint
CREATE INDEX "sessions_subject_idx" ON "sessions" USING btree ("subject_kind","subject_id");--> statement-breakpoint
CREATE UNIQUE INDEX "devices_serial_uq" ON "devices" USING btree ("serial");--> statement-breakpoint
CREATE INDEX "devices_institution_idx" ON "devices" USING btree ("institution_id","id");--> statement-breakpoint
CREATE INDEX "devices_expires_idx" ON "devices" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "devices_created_idx" ON "devices" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "devices_search_trgm_idx" ON "devices" USING gin (lower("serial" || ' ' || "name" || ' ' || "model") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "acupoint_actions_acupoint_idx" ON "acupoint_actions" USING btree ("acupoint_id","sort");--> statement-breakpoint
CREATE UNIQUE INDEX "acupoints_code_uq" ON "acupoints" USING btree ("code");--> statement-breakpoint
CREATE INDEX "acupoints_meridian_idx" ON "acupoints" USING btree ("meridian");--> statement-breakpoint
CREATE UNIQUE INDEX "disease_acupoints_pk" ON "disease_acupoints" USING btree ("disease_id","acupoint_id");--> statement-breakpoint
CREATE INDEX "disease_acupoints_acupoint_idx" ON "disease_acupoints" USING btree ("acupoint_id");--> statement-breakpoint
CREATE UNIQUE INDEX "disease_systems_pk" ON "disease_systems" USING btree ("disease_id","system_id");--> statement-breakpoint
CREATE INDEX "disease_systems_system_idx" ON "disease_systems" USING btree ("system_id");--> statement-breakpoint
CREATE INDEX "diseases_category_idx" ON "diseases" USING btree ("category_id","sort");--> statement-breakpoint
CREATE INDEX "schematic_markers_schematic_idx" ON "schematic_markers" USING btree ("schematic_id","sort");--> statement-breakpoint
CREATE INDEX "schematic_markers_acupoint_idx" ON "schematic_markers" USING btree ("acupoint_id");--> statement-breakpoint
CREATE INDEX "systems_parent_idx" ON "systems" USING btree ("parent_id","sort");--> statement-breakpoint
CREATE INDEX "doctors_institution_idx" ON "doctors" USING btree ("institution_id","id");--> statement-breakpoint
CREATE INDEX "doctors_created_idx" ON "doctors" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "end_users_id_number_uq" ON "end_users" USING btree ("id_number") WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "end_users_institution_idx" ON "end_users" USING btree ("institution_id","id");--> statement-breakpoint
CREATE INDEX "end_users_created_idx" ON "end_users" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "packages_name_uq" ON "packages" USING btree (lower("name")) WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "packages_sort_idx" ON "packages" USING btree ("sort_order","id");