package io.mtables.ddl.statements;

import io.mtables.schemas.plan.RefreshPlan;
import java.text.ParseException;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Date;
import java.util.Optional;
import java.util.TimeZone;
import org.eclipse.microprofile.config.ConfigProvider;
import org.quartz.CronExpression;

/**
 * The next period boundary of a FULL table: when its next scheduled refresh is due, by the plan's
 * cron in the scheduler's time zone ({@code mt.scheduler.zone}, the scheduler's own key), with
 * Quartz's own evaluation, as the scheduler computes it.
 */
final class NextRefresh {

  private NextRefresh() {}

  static Optional<Instant> after(RefreshPlan plan, Instant now) {
    if (plan.status() != RefreshPlan.Status.ACTIVE || plan.mode() != RefreshPlan.Mode.FULL || plan.cron() == null) {
      return Optional.empty();
    }
    try {
      CronExpression cron = new CronExpression(plan.cron());
      cron.setTimeZone(TimeZone.getTimeZone(zone()));
      Date next = cron.getNextValidTimeAfter(Date.from(now));
      return Optional.ofNullable(next).map(Date::toInstant);
    } catch (ParseException e) {
      return Optional.empty();
    }
  }

  private static ZoneId zone() {
    return ConfigProvider.getConfig().getOptionalValue("mt.scheduler.zone", String.class).map(ZoneId::of).orElse(ZoneId.of("UTC"));
  }
}
